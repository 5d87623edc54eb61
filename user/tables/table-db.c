// SPDX-License-Identifier: GPL-2.0
/*
 * SQLite in memory: the rows are inserted through one prepared statement
 * a table, in one transaction. Queries run under an authorizer that
 * allows reading only, a progress handler that stops them at their
 * deadline, and a cap on the length of any value they make.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>
#include <unistd.h>

#include <sqlite3.h>

#include "tables/table-db.h"
#include "util/outfile.h"

/* The largest string or blob a query may make: no query fills memory by one. */
#define TABLE_DB_MAX_LENGTH (16 << 20)

/*
 * Rows wait in a batch until TABLE_DB_BATCH of a table are inserted by
 * one statement: a statement's own cost (its VDBE program's start and
 * end, the cursor) was most of a row's when each row was one. The model's
 * pass makes batches in the caller's thread; a thread of the load inserts
 * them (SQLite was half the time, the pass and the rows a third): at most
 * TABLE_DB_QUEUE batches wait between the two.
 */
#define TABLE_DB_BATCH 32
#define TABLE_DB_QUEUE 64

struct db_batch {
	enum table_id t;
	unsigned int n;
	struct table_value *v;	/* TABLE_DB_BATCH rows; a string's is an offset in @text */
	char *text;
	size_t text_len, text_cap;
	struct db_batch *next;
};

/* The batches between the pass and the inserting thread. */
struct db_queue {
	pthread_mutex_t lock;
	pthread_cond_t more, room;
	struct db_batch *head, *tail, *free;
	unsigned int len;
	int waiting;		/* the inserting thread waits for a batch */
	int full;		/* the pass waits for room */
	int done;		/* no batch comes after those queued */
	int error;		/* the inserting thread's first failure */
};

struct table_db {
	sqlite3 *db;
	sqlite3_stmt *insert[TABLE_NR];
	sqlite3_stmt *many[TABLE_NR];	/* TABLE_DB_BATCH rows at once */
	struct db_batch *cur[TABLE_NR];	/* the batch each table fills */
	struct db_queue q;
	uint64_t rows;
	struct timespec deadline;
	int timing, timed_out;
};

static int db_error(struct table_db *db, struct error *err, int code, const char *what)
{
	return error_set(err, code, "%s: %s", what, sqlite3_errmsg(db->db));
}

/* --- percentile(value, p): nearest rank, as report's (docs/report.md) --- */

struct pct_state {
	double *v;
	size_t n, cap;
	double p;
	int bad_p;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void pct_step(sqlite3_context *c, int argc, sqlite3_value **argv)
{
	struct pct_state *s = sqlite3_aggregate_context(c, sizeof(*s));

	(void)argc;
	if (!s)
		return sqlite3_result_error_nomem(c);
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL)
		return;
	s->p = sqlite3_value_double(argv[1]);
	if (!(s->p >= 0 && s->p <= 100))
		s->bad_p = 1;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		double *v = sqlite3_realloc64(s->v, cap * sizeof(*v));

		if (!v)
			return sqlite3_result_error_nomem(c);
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = sqlite3_value_double(argv[0]);
}

static void pct_final(sqlite3_context *c)
{
	struct pct_state *s = sqlite3_aggregate_context(c, 0);
	size_t rank;
	double x;

	if (!s || !s->n) {
		sqlite3_result_null(c);
	} else if (s->bad_p) {
		sqlite3_result_error(c, "percentile: p must be between 0 and 100", -1);
	} else {
		qsort(s->v, s->n, sizeof(*s->v), cmp_double);
		/* The value of rank ceil(p/100 * n), rank 1 at least. */
		rank = (size_t)ceil(s->p / 100.0 * (double)s->n);
		x = s->v[rank ? rank - 1 : 0];
		if (x == floor(x) && fabs(x) < 9e15)
			sqlite3_result_int64(c, (sqlite3_int64)x);
		else
			sqlite3_result_double(c, x);
	}
	if (s)
		sqlite3_free(s->v);
}

/* --- Building --- */

/* "INSERT INTO t VALUES (?, ?), (?, ?)...": @rows rows. */
static int prepare_insert(struct table_db *db, const struct table_def *d, unsigned int rows,
			  sqlite3_stmt **st)
{
	size_t cap = 64 + (size_t)rows * (4 + 3 * d->nr_cols);
	char *sql = malloc(cap), *p = sql;
	unsigned int r, i;
	int rc;

	if (!sql)
		return SQLITE_NOMEM;
	p += sprintf(p, "INSERT INTO %s VALUES ", d->name);
	for (r = 0; r < rows; r++) {
		p += sprintf(p, "%s(", r ? ", " : "");
		for (i = 0; i < d->nr_cols; i++)
			p += sprintf(p, "%s?", i ? ", " : "");
		*p++ = ')';
	}
	*p = '\0';
	rc = sqlite3_prepare_v3(db->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL);
	free(sql);
	return rc;
}

static int create_table(struct table_db *db, const struct table_def *d, struct error *err)
{
	char sql[4096], *p = sql, *end = sql + sizeof(sql);
	unsigned int i;

	p += snprintf(p, end - p, "CREATE TABLE %s (", d->name);
	for (i = 0; i < d->nr_cols && p < end; i++)
		p += snprintf(p, end - p, "%s%s %s%s", i ? ", " : "", d->cols[i].name,
			      table_type_sql(d->cols[i].type),
			      !i && d->keyed ? " PRIMARY KEY" : "");
	if (p < end)
		p += snprintf(p, end - p, ")");
	if (p >= end)
		return error_set(err, -EINVAL, "table %s: too many columns", d->name);
	if (sqlite3_exec(db->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_error(db, err, -EINVAL, d->name);
	if (prepare_insert(db, d, 1, &db->insert[d - table_defs]) ||
	    prepare_insert(db, d, TABLE_DB_BATCH, &db->many[d - table_defs]))
		return db_error(db, err, -EINVAL, d->name);
	return 0;
}

struct table_db *table_db_new(struct error *err)
{
	struct table_db *db = calloc(1, sizeof(*db));
	sqlite3_int64 size_limit = (sqlite3_int64)1 << 44;
	unsigned int i;

	if (!db) {
		error_set(err, -ENOMEM, "%s", error_str(-ENOMEM));
		return NULL;
	}
	/*
	 * One thread uses a connection: no mutexes (a fifth of the load's
	 * time), and no allocation statistics (each malloc took a lock).
	 * sqlite3_config() works only before SQLite starts: later calls
	 * fail harmlessly.
	 */
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	/*
	 * In memory as one block (the memdb VFS, a name of this connection's
	 * own), which --db writes as it is: serializing ":memory:" copied
	 * the whole database first (10M records: 800 MB peak, now 420).
	 * memdb's default limit of 1 GiB is lifted.
	 */
	if (sqlite3_open_v2("ktprof", &db->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_NOMUTEX, "memdb") != SQLITE_OK ||
	    sqlite3_file_control(db->db, "main", SQLITE_FCNTL_SIZE_LIMIT, &size_limit) !=
	    SQLITE_OK) {
		error_set(err, -ENOMEM, "sqlite: %s", db->db ? sqlite3_errmsg(db->db) :
			  "out of memory");
		table_db_free(db);
		return NULL;
	}
	sqlite3_limit(db->db, SQLITE_LIMIT_LENGTH, TABLE_DB_MAX_LENGTH);
	sqlite3_limit(db->db, SQLITE_LIMIT_ATTACHED, 0);
	sqlite3_db_config(db->db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL);
	sqlite3_db_config(db->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	sqlite3_db_config(db->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
	if (sqlite3_create_function(db->db, "percentile", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
				    NULL, NULL, pct_step, pct_final) != SQLITE_OK) {
		db_error(db, err, -EINVAL, "percentile");
		table_db_free(db);
		return NULL;
	}
	for (i = 0; i < TABLE_NR; i++)
		if (create_table(db, &table_defs[i], err)) {
			table_db_free(db);
			return NULL;
		}
	return db;
}

void table_db_free(struct table_db *db)
{
	unsigned int i;

	if (!db)
		return;
	for (i = 0; i < TABLE_NR; i++) {
		sqlite3_finalize(db->insert[i]);
		sqlite3_finalize(db->many[i]);
	}
	sqlite3_close(db->db);
	free(db);
}

/* Bind @n rows of table @t from @v (strings in @text) to @st, from parameter 1. */
static int bind_rows(sqlite3_stmt *st, const struct table_def *d, const struct table_value *v,
		     unsigned int n, const char *text)
{
	unsigned int i, k = 0, r;
	int rc = SQLITE_OK;

	for (r = 0; r < n; r++)
		for (i = 0; i < d->nr_cols && rc == SQLITE_OK; i++, v++) {
			k++;
			if (v->null)
				rc = sqlite3_bind_null(st, k);
			else if (d->cols[i].type == TABLE_INT)
				rc = sqlite3_bind_int64(st, k, v->i);
			else if (d->cols[i].type == TABLE_REAL)
				rc = sqlite3_bind_double(st, k, v->r);
			else
				rc = sqlite3_bind_text(st, k, text + v->i, -1, SQLITE_STATIC);
		}
	return rc;
}

static int step(sqlite3_stmt *st, int rc)
{
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : rc == SQLITE_NOMEM ? -ENOMEM : -EIO;
}

/* Insert the rows of @b: all at once when it is full. */
static int batch_insert(struct table_db *db, struct db_batch *b)
{
	const struct table_def *d = &table_defs[b->t];
	unsigned int r;
	int ret = 0;

	if (b->n == TABLE_DB_BATCH)
		ret = step(db->many[b->t], bind_rows(db->many[b->t], d, b->v, b->n, b->text));
	else
		for (r = 0; r < b->n && !ret; r++)
			ret = step(db->insert[b->t], bind_rows(db->insert[b->t], d,
							       b->v + (size_t)r * d->nr_cols, 1,
							       b->text));
	db->rows += ret ? 0 : b->n;
	return ret;
}

static void batch_free(struct db_batch *b)
{
	if (b) {
		free(b->v);
		free(b->text);
		free(b);
	}
}

/* An empty batch for table @t: one given back, or a new one; NULL: no memory. */
static struct db_batch *batch_get(struct db_queue *q, enum table_id t)
{
	struct db_batch *b;

	pthread_mutex_lock(&q->lock);
	b = q->free;
	if (b)
		q->free = b->next;
	pthread_mutex_unlock(&q->lock);
	if (!b) {
		size_t cols = 0;
		unsigned int i;

		/* Room for any table's rows: batches are reused across tables. */
		for (i = 0; i < TABLE_NR; i++)
			if (table_defs[i].nr_cols > cols)
				cols = table_defs[i].nr_cols;
		b = calloc(1, sizeof(*b));
		if (!b || !(b->v = calloc(TABLE_DB_BATCH * cols, sizeof(*b->v)))) {
			free(b);
			return NULL;
		}
	}
	b->t = t;
	b->n = 0;
	b->text_len = 0;
	b->next = NULL;
	return b;
}

/* Hand @b to the inserting thread (waiting while the queue is full): its error. */
static int queue_push(struct db_queue *q, struct db_batch *b)
{
	int ret;

	pthread_mutex_lock(&q->lock);
	while (q->len >= TABLE_DB_QUEUE && !q->error) {
		q->full = 1;
		pthread_cond_wait(&q->room, &q->lock);
	}
	ret = q->error;
	if (!ret) {
		if (q->tail)
			q->tail->next = b;
		else
			q->head = b;
		q->tail = b;
		q->len++;
		/* A wakeup only when it sleeps: a futex call a batch cost a fifth. */
		if (q->waiting)
			pthread_cond_signal(&q->more);
	} else {
		b->next = q->free;
		q->free = b;
	}
	pthread_mutex_unlock(&q->lock);
	return ret;
}

/* The inserting thread: every batch queued, until the queue is done. */
static void *inserter(void *arg)
{
	struct table_db *db = arg;
	struct db_queue *q = &db->q;
	struct db_batch *b;
	int ret;

	for (;;) {
		pthread_mutex_lock(&q->lock);
		while (!q->head && !q->done) {
			q->waiting = 1;
			pthread_cond_wait(&q->more, &q->lock);
			q->waiting = 0;
		}
		b = q->head;
		if (b) {
			q->head = b->next;
			if (!q->head)
				q->tail = NULL;
			q->len--;
		}
		pthread_mutex_unlock(&q->lock);
		if (!b)
			return NULL;
		ret = q->error ? 0 : batch_insert(db, b);
		pthread_mutex_lock(&q->lock);
		if (ret && !q->error)
			q->error = ret;
		b->next = q->free;
		q->free = b;
		/*
		 * The pass, faster, waits on a full queue: woken when half of
		 * it is free, not for each batch (a switch each was a seventh
		 * of the time).
		 */
		if ((q->full && q->len <= TABLE_DB_QUEUE / 2) || ret) {
			q->full = 0;
			pthread_cond_signal(&q->room);
		}
		pthread_mutex_unlock(&q->lock);
	}
}

/* A string into @b's text: its offset, or -1. */
static int64_t batch_text(struct db_batch *b, const char *s)
{
	size_t len = strlen(s) + 1, off = b->text_len;

	if (b->text_len + len > b->text_cap) {
		size_t cap = b->text_cap ? b->text_cap : 4096;
		char *p;

		while (cap < b->text_len + len)
			cap *= 2;
		p = realloc(b->text, cap);
		if (!p)
			return -1;
		b->text = p;
		b->text_cap = cap;
	}
	memcpy(b->text + off, s, len);
	b->text_len += len;
	return (int64_t)off;
}

static int db_row(void *ctx, enum table_id t, const struct table_value *v)
{
	struct table_db *db = ctx;
	const struct table_def *d = &table_defs[t];
	struct db_batch *b = db->cur[t];
	struct table_value *w;
	unsigned int i;

	if (!b && !(b = db->cur[t] = batch_get(&db->q, t)))
		return -ENOMEM;
	w = b->v + (size_t)b->n * d->nr_cols;
	for (i = 0; i < d->nr_cols; i++) {
		w[i] = v[i];
		if (d->cols[i].type == TABLE_TEXT && !v[i].null) {
			w[i].i = batch_text(b, v[i].s);
			w[i].s = NULL;
			if (w[i].i < 0)
				return -ENOMEM;
		}
	}
	if (++b->n < TABLE_DB_BATCH)
		return 0;
	db->cur[t] = NULL;
	return queue_push(&db->q, b);
}

/* The pass, its batches inserted by a thread of their own. */
static int fill(struct table_db *db, const char *path, const struct table_fill_config *cfg,
		struct error *err)
{
	const struct table_sink sink = { NULL, db_row, db };
	struct db_queue *q = &db->q;
	struct db_batch *b;
	unsigned int t;
	pthread_t th;
	int ret, r;

	memset(q, 0, sizeof(*q));
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->more, NULL);
	pthread_cond_init(&q->room, NULL);
	ret = -pthread_create(&th, NULL, inserter, db);
	if (!ret) {
		ret = table_fill(path, cfg, &sink, err);
		/* What the tables hold of rows not yet a full batch. */
		for (t = 0; t < TABLE_NR; t++) {
			r = db->cur[t] && ret >= 0 ? queue_push(q, db->cur[t]) : 0;
			if (!r && ret >= 0)
				db->cur[t] = NULL;
			if (r && ret >= 0)
				ret = r;
		}
		pthread_mutex_lock(&q->lock);
		q->done = 1;
		pthread_cond_signal(&q->more);
		pthread_mutex_unlock(&q->lock);
		pthread_join(th, NULL);
		if (q->error && ret >= 0)
			ret = q->error;
	} else {
		error_set(err, ret, "%s", error_str(ret));
	}
	for (t = 0; t < TABLE_NR; t++) {
		batch_free(db->cur[t]);
		db->cur[t] = NULL;
	}
	while ((b = q->head)) {
		q->head = b->next;
		batch_free(b);
	}
	while ((b = q->free)) {
		q->free = b->next;
		batch_free(b);
	}
	pthread_cond_destroy(&q->room);
	pthread_cond_destroy(&q->more);
	pthread_mutex_destroy(&q->lock);
	return ret;
}

int table_db_load(struct table_db *db, const char *path, const struct table_fill_config *cfg,
		  struct error *err)
{
	int ret;

	if (sqlite3_exec(db->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
		return db_error(db, err, -EIO, "begin");
	ret = fill(db, path, cfg, err);
	if (ret == -EIO)
		db_error(db, err, ret, path);
	else if (ret == -ENOMEM)
		error_set(err, ret, "%s: %s", path, error_str(ret));
	if (sqlite3_exec(db->db, ret < 0 ? "ROLLBACK" : "COMMIT", NULL, NULL, NULL) != SQLITE_OK &&
	    ret >= 0)
		ret = db_error(db, err, -EIO, "commit");
	return ret;
}

uint64_t table_db_rows(const struct table_db *db)
{
	return db->rows;
}

int table_db_save(struct table_db *db, const char *path, struct error *err)
{
	sqlite3_int64 size = 0;
	/* The database's own memory; a copy only if it cannot be had. */
	unsigned char *bytes = sqlite3_serialize(db->db, "main", &size, SQLITE_SERIALIZE_NOCOPY);
	int copied = !bytes;
	struct outfile *of;
	size_t done = 0;
	ssize_t n;
	int ret = 0;

	if (copied)
		bytes = sqlite3_serialize(db->db, "main", &size, 0);
	if (!bytes)
		return error_set(err, -ENOMEM, "%s: %s", path, error_str(-ENOMEM));
	of = outfile_open(path, 0644, 0);
	if (!of) {
		ret = -errno;
		if (copied)
			sqlite3_free(bytes);
		return error_set(err, ret, "%s: %s", path, error_str(ret));
	}
	while (done < (size_t)size) {
		n = write(outfile_fd(of), bytes + done, size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : -EIO;
			break;
		}
		done += n;
	}
	if (copied)
		sqlite3_free(bytes);
	if (ret) {
		outfile_discard(of);
		return error_set(err, ret, "%s: %s", path, error_str(ret));
	}
	ret = outfile_close(of);
	return ret ? error_set(err, ret, "%s: %s", path, error_str(ret)) : 0;
}

/* --- Queries --- */

/* Reading is all a query may do: no writes, no ATTACH, no PRAGMA that sets. */
static int authorize(void *ctx, int action, const char *a, const char *b, const char *c,
		     const char *d)
{
	(void)ctx, (void)b, (void)c, (void)d;
	switch (action) {
	case SQLITE_SELECT:
	case SQLITE_READ:
	case SQLITE_FUNCTION:
	case SQLITE_RECURSIVE:
		return SQLITE_OK;
	case SQLITE_PRAGMA:
		/* Schema questions only (b is the table they ask about). */
		if (a && (!strcmp(a, "table_info") || !strcmp(a, "table_xinfo") ||
			  !strcmp(a, "table_list")))
			return SQLITE_OK;
		return SQLITE_DENY;
	default:
		return SQLITE_DENY;
	}
}

static int progress(void *ctx)
{
	struct table_db *db = ctx;
	struct timespec now;

	if (!db->timing)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec > db->deadline.tv_sec ||
	    (now.tv_sec == db->deadline.tv_sec && now.tv_nsec >= db->deadline.tv_nsec)) {
		db->timed_out = 1;
		return 1;
	}
	return 0;
}

static void start_clock(struct table_db *db, uint32_t ms)
{
	db->timing = ms != 0;
	db->timed_out = 0;
	if (!ms)
		return;
	clock_gettime(CLOCK_MONOTONIC, &db->deadline);
	db->deadline.tv_sec += ms / 1000;
	db->deadline.tv_nsec += (long)(ms % 1000) * 1000000;
	if (db->deadline.tv_nsec >= 1000000000) {
		db->deadline.tv_sec++;
		db->deadline.tv_nsec -= 1000000000;
	}
}

static int give_columns(sqlite3_stmt *st, const struct table_result_ops *ops, void *ctx)
{
	unsigned int i, n = sqlite3_column_count(st);
	const char **names = calloc(n + 1, sizeof(*names));
	int ret;

	if (!names)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		names[i] = sqlite3_column_name(st, i);
		if (!names[i])
			names[i] = "?";
	}
	ret = ops->columns ? ops->columns(ctx, n, names) : 0;
	free(names);
	return ret;
}

static int give_row(sqlite3_stmt *st, const struct table_result_ops *ops, void *ctx)
{
	unsigned int i, n = sqlite3_column_count(st);
	struct table_value v[n ? n : 1];
	enum table_type t[n ? n : 1];
	const char *names[n ? n : 1];

	for (i = 0; i < n; i++) {
		names[i] = sqlite3_column_name(st, i);
		if (!names[i])
			names[i] = "?";
		v[i] = TV_NULL;
		t[i] = TABLE_TEXT;
		switch (sqlite3_column_type(st, i)) {
		case SQLITE_INTEGER:
			v[i] = TV_INT(sqlite3_column_int64(st, i));
			t[i] = TABLE_INT;
			break;
		case SQLITE_FLOAT:
			v[i] = TV_REAL(sqlite3_column_double(st, i));
			t[i] = TABLE_REAL;
			break;
		case SQLITE_NULL:
			break;
		default:	/* text, and a blob as its bytes up to a NUL */
			v[i] = TV_TEXT((const char *)sqlite3_column_text(st, i));
			if (!v[i].s)
				return -ENOMEM;
			break;
		}
	}
	return ops->row ? ops->row(ctx, n, names, v, t) : 0;
}

static int query_error(struct table_db *db, int rc, struct error *err)
{
	if (db->timed_out)
		return error_set(err, -ETIMEDOUT, "the query ran out of time");
	if (rc == SQLITE_AUTH)
		return error_set(err, -EPERM, "%s (queries may only read)",
				 sqlite3_errmsg(db->db));
	if (rc == SQLITE_NOMEM)
		return error_set(err, -ENOMEM, "out of memory");
	return error_set(err, -EINVAL, "%s", sqlite3_errmsg(db->db));
}

static int run(struct table_db *db, sqlite3_stmt *st, const struct table_limits *lim,
	       const struct table_result_ops *ops, void *ctx, struct table_result *res,
	       struct error *err)
{
	int rc, ret = give_columns(st, ops, ctx);

	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (lim->max_rows && res->rows == lim->max_rows) {
			res->capped = 1;
			return 0;
		}
		ret = give_row(st, ops, ctx);
		res->rows++;
	}
	if (ret)
		return ret == -ENOMEM ? error_set(err, ret, "out of memory") : ret;
	return rc == SQLITE_DONE ? 0 : query_error(db, rc, err);
}

int table_db_query(struct table_db *db, const char *sql, const char **tail,
		   const struct table_limits *lim, const struct table_result_ops *ops,
		   void *ctx, struct table_result *res, struct error *err)
{
	static const struct table_limits none;
	sqlite3_stmt *st = NULL;
	int rc, ret;

	memset(res, 0, sizeof(*res));
	if (!lim)
		lim = &none;
	sqlite3_set_authorizer(db->db, authorize, db);
	sqlite3_progress_handler(db->db, 10000, progress, db);
	start_clock(db, lim->timeout_ms);
	rc = sqlite3_prepare_v2(db->db, sql, -1, &st, tail);
	if (rc != SQLITE_OK) {
		ret = query_error(db, rc, err);
	} else if (!st) {
		ret = 0;	/* blank, or a comment */
	} else if (!sqlite3_stmt_readonly(st)) {
		ret = error_set(err, -EPERM, "queries may only read");
	} else {
		ret = run(db, st, lim, ops, ctx, res, err);
	}
	sqlite3_finalize(st);
	sqlite3_progress_handler(db->db, 0, NULL, NULL);
	sqlite3_set_authorizer(db->db, NULL, NULL);
	db->timing = 0;
	return ret;
}
