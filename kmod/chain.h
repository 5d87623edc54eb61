/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kept stack walks (chain.c): a kernel stack taken again without unwinding
 * when it holds what an earlier walk read. For stacks.c.
 */
#ifndef KTPROF_CHAIN_H
#define KTPROF_CHAIN_H

#include <linux/types.h>
#include <asm/unwind.h>

#define KTP_CHAINS 32		/* kept walks per CPU */
#define KTP_CHAIN_OPS 64	/* a walk that reads more is not kept */
#define KTP_CHAIN_FRAMES 48	/* nor one that gives more frames */
#define KTP_CHAIN_ANCHORS 40

/*
 * A stack word the walk read: at @where words from anchor @at; with @pin
 * (an anchor's number, not 0) its value is that anchor, else it is @word
 * of its chain.
 */
struct ktp_chain_op {
	s16 where;
	u8 at;
	u8 pin;
};

/*
 * One kept walk: the words it read in order, the anchors the places are
 * counted from (0: the walk's start; then places the words themselves
 * give, as frame pointers), the user registers it ended at, and the frames
 * it gave with their hash.
 */
struct ktp_chain {
	u8 nr_ops;
	u8 nr_anchors;		/* 0: forgotten (ktp_chain_forget()) */
	u8 nr_ips;
	u8 end_at;		/* the user registers: at @end_where from it */
	s16 end_where;
	int gen;		/* module unloads before it was made */
	u64 hash;		/* of @ips, as ktp_stack_intern() takes it */
	struct ktp_chain_op op[KTP_CHAIN_OPS];
	unsigned long word[KTP_CHAIN_OPS];
	u64 ips[KTP_CHAIN_FRAMES];
};

/* One CPU's kept walks, and the walk being made; IRQs off, that CPU only. */
struct ktp_chains {
	struct ktp_chain walk;
	bool keep;		/* the walk can still be kept */
	int gen;		/* module unloads before it began */
	unsigned long base;	/* the task's stack */
	unsigned long last_sp;	/* ORC: the last frame's stack pointer, */
	unsigned long last_bp;	/* and its rbp */
	unsigned long last_word;	/* the last word checked for a value */
	/* Each anchor's place: the words from it up are counted from it. */
	unsigned long anchor[KTP_CHAIN_ANCHORS];
	u8 nr_kept;
	u8 order[KTP_CHAINS];	/* most recently used first */
	struct ktp_chain chains[KTP_CHAINS];
};

int ktp_chain_init(void);
void ktp_chain_exit(void);
unsigned long ktp_chain_start(unsigned long frame);
void ktp_chain_begin(struct ktp_chains *cs, unsigned long start);
void ktp_chain_frame(struct ktp_chains *cs, struct unwind_state *state,
		     unsigned long addr);
void ktp_chain_end(struct ktp_chains *cs, struct unwind_state *state,
		   unsigned int nr_ips);
void ktp_chain_keep(struct ktp_chains *cs, const u64 *ips, u64 hash);
struct ktp_chain *ktp_chain_find(struct ktp_chains *cs, unsigned long start);
void ktp_chain_forget(struct ktp_chains *cs, struct ktp_chain *c);

#endif
