/* report_logpar.c - read a large probe log on several cores (issue #6 item 7).
 * The file is mapped and cut into blocks at line ends. Each block goes
 * through three stages: any thread may parse the next block into records
 * (the costly part); only the main thread applies records, strictly in
 * block order, so the result is the same as a single sequential pass; then
 * one thread at a time, again in block order, stores the applied samples
 * into their series (memory-bound: every line writes to another series), so
 * that this runs beside applying rather than after it. Stored blocks are
 * dropped from memory, so the resident set stays a few blocks wide whatever
 * the file size. */
#include "report.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* 2 MB blocks (some 27,000 lines): their records (64 bytes a line, 1.8 MB)
 * are still in the shared cache when the main thread applies them, and
 * there are few handovers between the threads. Against 512 KB blocks the
 * bench log took 15-20% less time (three interleaved comparisons of 8
 * rounds; 1 MB and 4 MB between the two). */
#define BLOCK_BYTES (2u << 20)
/* Blocks in flight. 6 against 4: 0.935-0.987 wall, 0.943-0.965 CPU (three
 * rotated comparisons of 12-16 rounds on both bench logs), peak RSS + 6 MB;
 * 8 was no better than 6, 3 was 10% slower. */
#define NSLOTS 6
/* Stored pages are handed back this many at a time. */
#define RELEASE_BYTES (8u << 20)
#define MAX_WORKERS 3

struct block {
	const char *start, *end;
	struct rp_rec *recs;
	size_t nrecs, cap;
	int parsed;
	char *tail; /* copy of a last line without newline */
	const char *done_start, *done_end; /* stored blocks to hand back, or NULL */
};

struct par {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	const char *map, *pos, *end; /* pos: first byte not yet claimed */
	const char *released;        /* pages before it are handed back */
	size_t page;
	size_t next_claim, next_apply, next_store;
	int storing; /* a thread is storing block next_store */
	struct block slots[NSLOTS];
	const char *run_sep;
	/* the samples of each series: owned by the store stage while the
	 * main thread may move lg->samples (new series); where the next
	 * sample of each goes (apart: storing sweeps all series, run after
	 * run, and touches only those); and their chunks */
	struct rp_samples *store;
	struct rp_put *hot;
	size_t nstore, store_cap, hot_cap;
	struct rp_arena *arena;
};

/* The parser reads the byte after a line (its stop byte): give the last
 * line one. Its record's name must outlive the copy, so it is kept. */
static void last_line(const char *run_sep, const char *p, size_t n, struct block *b)
{
	free(b->tail);
	b->tail = pk_xmalloc(n + 1);
	memcpy(b->tail, p, n);
	b->tail[n] = '\n';
	rp_log_classify(run_sep, b->tail, n, &b->recs[b->nrecs++]);
}

static void parse_block(const char *run_sep, struct block *b, const char *limit)
{
	const char *p = b->start;
	struct rp_fast_tpls tpl;
	rp_fast_tpls_init(&tpl);
	b->nrecs = 0;
	while (p < b->end) {
		if (b->nrecs == b->cap)
			PK_GROW(b->recs, b->cap, b->nrecs + 1);
		size_t k;
		p += rp_log_classify_many(run_sep, p, b->end, limit, &tpl, b->recs + b->nrecs,
					  b->cap - b->nrecs, &k);
		b->nrecs += k;
		if (k == 0) { /* (room for one at least) the file's last line has no newline */
			last_line(run_sep, p, (size_t)(b->end - p), b);
			break;
		}
	}
}

/* Under the lock: take the next block if a slot is free. */
static struct block *claim(struct par *P)
{
	if (P->pos == P->end || P->next_claim - P->next_store >= NSLOTS)
		return NULL;
	struct block *b = &P->slots[P->next_claim++ % NSLOTS];
	/* The block this slot held is stored, like every block before it:
	 * hand their pages back, in batches (each call interrupts the other
	 * cores to flush their TLBs) */
	b->done_start = b->done_end = NULL;
	if (b->end && (size_t)(b->end - P->released) >= RELEASE_BYTES) {
		b->done_start = P->released;
		b->done_end = P->released = b->end;
	}
	const char *cut = (size_t)(P->end - P->pos) > BLOCK_BYTES ? P->pos + BLOCK_BYTES : P->end;
	if (cut < P->end) {
		const char *nl = memchr(cut, '\n', (size_t)(P->end - cut));
		cut = nl ? nl + 1 : P->end;
	}
	b->start = P->pos;
	b->end = cut;
	b->parsed = 0;
	P->pos = cut;
	return b;
}

/* Whole pages of [lo, hi): the first from LO's page, the last before HI's. */
static void page_advise(const struct par *P, const char *lo, const char *hi, int advice)
{
	uintptr_t a = ((uintptr_t)lo - (uintptr_t)P->map) / P->page * P->page;
	uintptr_t b = ((uintptr_t)hi - (uintptr_t)P->map) / P->page * P->page;
	if (b > a)
		madvise((char *)P->map + a, b - a, advice);
}

/* Parse B outside the lock, then publish it. Also hand back the pages of
 * the block the slot held before (stored, like every block before it:
 * they were only read), so that the main thread, the one serial stage,
 * does not pay for unmapping. */
static void work(struct par *P, struct block *b)
{
	pthread_mutex_unlock(&P->mu);
	if (b->done_end)
		page_advise(P, b->done_start, b->done_end, MADV_DONTNEED);
#ifdef MADV_POPULATE_READ
	/* map the block in one call rather than a page fault per few pages */
	page_advise(P, b->start, b->end + P->page - 1 < P->end ? b->end + P->page - 1 : P->end,
		    MADV_POPULATE_READ);
#endif
	parse_block(P->run_sep, b, P->end);
	pthread_mutex_lock(&P->mu);
	b->parsed = 1;
	pthread_cond_broadcast(&P->cv);
}

/* How many records ahead the store stage fetches the place a sample goes:
 * far enough for a cache miss to memory to be over by then. */
#define STORE_AHEAD 8
/* How many records ahead applying fetches them. */
#define REC_AHEAD 6

/* The store-stage entry of series S (applied records name only series
 * that exist: S is at most one past the last). */
static void store_slot(struct par *P, size_t s)
{
	if (s >= P->nstore) {
		PK_GROW(P->store, P->store_cap, s + 1);
		PK_GROW(P->hot, P->hot_cap, s + 1);
		memset(&P->store[P->nstore], 0, (s + 1 - P->nstore) * sizeof(*P->store));
		memset(&P->hot[P->nstore], 0, (s + 1 - P->nstore) * sizeof(*P->hot));
		P->nstore = s + 1;
	}
}

/* Store the samples of block next_store, outside the lock. */
static void store(struct par *P)
{
	struct block *b = &P->slots[P->next_store % NSLOTS];
	P->storing = 1;
	pthread_mutex_unlock(&P->mu);
	for (size_t i = 0; i < b->nrecs; i++) {
		if (i + 2 * STORE_AHEAD < b->nrecs)
			__builtin_prefetch(&b->recs[i + 2 * STORE_AHEAD]);
		if (i + STORE_AHEAD < b->nrecs) {
			const struct rp_rec *ahead = &b->recs[i + STORE_AHEAD];
			if (ahead->kind == RP_LINE_PROBE && (size_t)ahead->run < P->nstore) {
				const struct rp_put *h = &P->hot[ahead->run];
				if (h->put)
					__builtin_prefetch(h->put, 1);
				if (h->rput)
					__builtin_prefetch(h->rput, 1);
			}
		}
		const struct rp_rec *rec = &b->recs[i];
		if (rec->kind == RP_LINE_PROBE) {
			size_t s = (size_t)rec->run;
			if (s >= P->nstore)
				store_slot(P, s);
			if (!rp_put_sample(&P->hot[s], rec))
				rp_log_store_ent(P->arena, &P->hot[s], &P->store[s], rec);
		}
	}
	pthread_mutex_lock(&P->mu);
	P->storing = 0;
	P->next_store++;
	pthread_cond_broadcast(&P->cv);
}

static int can_store(const struct par *P)
{
	return !P->storing && P->next_store < P->next_apply;
}

static void *worker(void *arg)
{
	struct par *P = arg;
	pthread_mutex_lock(&P->mu);
	for (;;) {
		struct block *b;
		if (can_store(P))
			store(P);
		else if ((b = claim(P)))
			work(P, b);
		else if (P->pos == P->end && P->next_store == P->next_claim)
			break;
		else
			pthread_cond_wait(&P->cv, &P->mu);
	}
	pthread_mutex_unlock(&P->mu);
	return NULL;
}

/* Apply B in order. */
static void apply(struct par *P, struct rp_log *lg, struct block *b)
{
	pthread_mutex_unlock(&P->mu);
	for (size_t i = 0; i < b->nrecs; i++) {
		/* another core wrote them: fetch a few ahead */
		if (i + REC_AHEAD < b->nrecs)
			__builtin_prefetch(&b->recs[i + REC_AHEAD], 1);
		rp_log_apply(lg, &b->recs[i]);
	}
	pthread_mutex_lock(&P->mu);
	P->next_apply++;
	pthread_cond_broadcast(&P->cv);
}

static void run_main(struct par *P, struct rp_log *lg)
{
	pthread_mutex_lock(&P->mu);
	for (;;) {
		struct block *next = &P->slots[P->next_apply % NSLOTS];
		struct block *b;
		if (P->next_apply < P->next_claim && next->parsed)
			apply(P, lg, next);
		else if (can_store(P))
			store(P);
		else if (P->pos == P->end && P->next_store == P->next_claim)
			break;
		else if ((b = claim(P)))
			work(P, b);
		else
			pthread_cond_wait(&P->cv, &P->mu);
	}
	pthread_mutex_unlock(&P->mu);
}

/* Move the samples between lg->samples and the store stage's arrays: in
 * before reading (an earlier file's samples continue), out after (counted
 * then). */
static void samples_in(struct par *P, struct rp_samples *from, size_t n)
{
	if (n) { /* (FROM is NULL before the first series) */
		memcpy(P->store, from, n * sizeof(*from));
		for (size_t i = 0; i < n; i++)
			P->hot[i] = from[i].w;
		memset(from, 0, n * sizeof(*from));
	}
}

static void samples_out(struct rp_samples *to, const struct par *P)
{
	for (size_t i = 0; i < P->nstore; i++) {
		to[i] = P->store[i];
		to[i].w = P->hot[i];
		rp_samples_sync(&to[i]);
	}
}

static int nworkers(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN) - 1;
	return n < 0 ? 0 : n > MAX_WORKERS ? MAX_WORKERS : (int)n;
}

int rp_log_read_mapped(struct rp_log *lg, int fd, const char *name)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return pk_error("%s: %s", name, strerror(errno));
	if (!S_ISREG(st.st_mode) || st.st_size == 0)
		return rp_log_read_fd(lg, fd, name);
	void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return rp_log_read_fd(lg, fd, name);
	madvise(map, (size_t)st.st_size, MADV_SEQUENTIAL);
	struct par P;
	memset(&P, 0, sizeof(P));
	pthread_mutex_init(&P.mu, NULL);
	pthread_cond_init(&P.cv, NULL);
	P.map = P.pos = P.released = map;
	P.end = P.map + st.st_size;
	P.page = (size_t)sysconf(_SC_PAGESIZE);
	P.run_sep = lg->run_sep;
	P.arena = &lg->arena;
	P.nstore = P.store_cap = P.hot_cap = lg->nseries;
	P.store = pk_xcalloc(P.store_cap ? P.store_cap : 1, sizeof(*P.store));
	P.hot = pk_xcalloc(P.hot_cap ? P.hot_cap : 1, sizeof(*P.hot));
	samples_in(&P, lg->samples, lg->nseries);
	rp_log_begin_file(lg, name);

	pthread_t tid[MAX_WORKERS];
	int started = 0, want = nworkers();
	while (started < want && pthread_create(&tid[started], NULL, worker, &P) == 0)
		started++;
	run_main(&P, lg);
	for (int i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	samples_out(lg->samples, &P); /* nstore <= nseries */
	free(P.store);
	free(P.hot);
	for (int i = 0; i < NSLOTS; i++) {
		free(P.slots[i].recs);
		free(P.slots[i].tail);
	}
	pthread_cond_destroy(&P.cv);
	pthread_mutex_destroy(&P.mu);
	munmap(map, (size_t)st.st_size);
	return 0;
}
