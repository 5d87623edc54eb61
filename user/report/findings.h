/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What is abnormal in a report: rule-based findings, each naming its rule,
 * its threshold and the numbers that crossed it; and outliers among the
 * threads and CPUs by IQR or MAD. Rules and thresholds: findings_rules[]
 * (docs/report.md describes each).
 */
#ifndef KTPROF_FINDINGS_H
#define KTPROF_FINDINGS_H

#include <stddef.h>
#include <stdint.h>

enum outlier_method { OUTLIER_IQR, OUTLIER_MAD };

enum findings_rule {
	RULE_LOSS,
	RULE_RUNQUEUE,
	RULE_WAKEUP,
	RULE_CPU_BUSY,
	RULE_IMBALANCE,
	RULE_IRQ,
	RULE_MIGRATIONS,
	RULE_PREEMPTED,
	RULE_NR
};

struct findings_rule_info {
	const char *name;	/* for --threshold NAME=VALUE */
	const char *unit;	/* of the threshold */
	double def;		/* default threshold */
	const char *what;	/* one line for the help and the docs */
};

extern const struct findings_rule_info findings_rules[RULE_NR];

struct findings_config {
	double threshold[RULE_NR];	/* 0: the rule's default */
	uint64_t min_samples;		/* latency rules: fewer samples are not judged */
	enum outlier_method method;
};

enum finding_subject { SUBJECT_MACHINE, SUBJECT_CPU, SUBJECT_THREAD };

struct finding {
	enum findings_rule rule;
	enum finding_subject subject;
	uint32_t id;			/* CPU or thread index */
	double value, threshold;	/* in the rule's unit */
	double severity;		/* value / threshold (ranking) */
	char text[320];			/* the sentence, with its numbers */
};

struct outlier {
	const char *metric;		/* "p99 wakeup latency", ... */
	const char *unit;
	enum finding_subject subject;
	uint32_t id;
	double value;
	double limit;			/* IQR: the upper fence; MAD: the value at z = 3.5 */
	double score;			/* IQR: (value - Q3) / IQR; MAD: modified z */
};

struct findings {
	struct finding *v;
	size_t n, cap;
	struct outlier *o;
	size_t no, cap_o;
};

struct report;

/* The threshold of @rule in force. */
double findings_threshold(const struct findings_config *c, enum findings_rule rule);

/*
 * Set the threshold of rule @rule (a findings_rules[] name, or
 * "min-samples") to @v; 0, or -EINVAL for an unknown rule or a bad value.
 */
int findings_set_threshold(struct findings_config *c, const char *rule, double v);

/* Parse "NAME=VALUE" into @c; 0 or -EINVAL. */
int findings_parse_threshold(struct findings_config *c, const char *arg);

/* Judge @r; 0 or -ENOMEM. */
int findings_run(struct findings *f, const struct report *r);
void findings_fini(struct findings *f);

#endif
