/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What is abnormal in a report: rule-based findings, each naming its rule,
 * its threshold and the numbers that crossed it. The rules are the
 * analyses' own (struct findings_rule in analyzer.h), in the order of the
 * table; this file runs them and ranks what they find, and holds the
 * findings section. docs/report.md describes each rule.
 */
#ifndef KTPROF_FINDINGS_H
#define KTPROF_FINDINGS_H

#include <stddef.h>
#include <stdint.h>

#include "report/analyzer.h"

#define FINDINGS_MAX_RULES 32

enum outlier_method { OUTLIER_IQR, OUTLIER_MAD };

struct findings_config {
	double threshold[FINDINGS_MAX_RULES];	/* by rule index; 0: the rule's default */
	uint64_t min_samples;		/* rules on counts: fewer are not judged */
	enum outlier_method method;
};

enum finding_subject { SUBJECT_MACHINE, SUBJECT_CPU, SUBJECT_THREAD };

struct finding {
	unsigned int rule;		/* findings_rule_at() index */
	enum finding_subject subject;
	uint32_t id;			/* CPU or thread index */
	double value, threshold;	/* in the rule's unit */
	double severity;		/* value / threshold (ranking) */
	char text[320];			/* the sentence, with its numbers */
};

struct findings {
	struct finding *v;
	size_t n, cap;
	unsigned int rule;		/* the rule being judged */
};

/* The rules of every analysis, in table order: how many, and rule @i. */
unsigned int findings_nr_rules(void);
const struct findings_rule *findings_rule_at(unsigned int i);

/* The threshold in force of rule @i, or of the rule named @name (0 if none). */
double findings_threshold(const struct findings_config *c, unsigned int i);
double findings_threshold_of(const struct findings_config *c, const char *name);

/* Fewer counts than this are not judged. */
uint64_t findings_min_samples(const struct findings_config *c);

/*
 * Set the threshold of rule @rule (a rule's name, or "min-samples") to
 * @v; 0, or -EINVAL for an unknown rule or a bad value.
 */
int findings_set_threshold(struct findings_config *c, const char *rule, double v);

/* Parse "NAME=VALUE" into @c; 0 or -EINVAL. */
int findings_parse_threshold(struct findings_config *c, const char *arg);

/* "name (unit, default)" of every rule and min-samples, for help texts. */
const char *findings_rules_help(void);

/* For a rule's judge: a new finding of the rule being judged; NULL on ENOMEM. */
struct finding *findings_add(struct findings *f, enum finding_subject subject, uint32_t id,
			     double value, double threshold);

/* A subject's name: "CPU 3", "comm (pid 12)", "machine". */
struct report;
const char *findings_subject(const struct report *r, enum finding_subject s, uint32_t id,
			     char *buf, size_t len);

/* A subject in JSON (findings, outliers): its fields, and its value. */
extern const struct json_field findings_subject_fields[];
struct json_object *findings_subject_json(struct json_ctx *c, enum finding_subject s,
					  uint32_t id);

/* The findings of a report (its findings section's state). */
const struct findings *report_findings(const struct report *r);

extern const struct analyzer analyzer_findings;

#endif
