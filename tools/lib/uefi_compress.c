/* UEFI compression (UEFI 2.10, 19.2-19.3), host side. The LZ77 pass finds, at each
 * position, the longest earlier string within the window through chains of positions that
 * share a 3-byte hash, and takes a string only when the next position does not start a
 * longer one (lazy matching). Tokens are gathered into blocks; each block gets Huffman
 * codes built from its own frequencies, limited to 16 bits by halving the frequencies
 * until the tree is shallow enough. */
#include <ember/lib/uefi_decompress.h>
#include <ember/tools/uefi_compress.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define NC UEFI_COMPRESS_NC
#define NP UEFI_COMPRESS_NP
#define NT UEFI_COMPRESS_NT
#define MAX_BITS UEFI_COMPRESS_MAX_CODE_BITS
#define MIN_MATCH UEFI_COMPRESS_MIN_MATCH
#define MAX_MATCH UEFI_COMPRESS_MAX_MATCH
#define MAX_DISTANCE (UEFI_COMPRESS_MAX_POSITION + 1)
#define HASH_BITS 15
#define CHAIN_DEPTH 256
#define BLOCK_TOKENS 16384 /* the block size field is 16 bits */

struct writer {
	uint8_t *buf;
	size_t size, cap;
	uint64_t acc; /* bits not yet written, the last nbits of it */
	unsigned nbits;
	bool failed;
};

static void put_byte(struct writer *w, uint8_t b)
{
	if (w->size == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 4096;
		uint8_t *bigger = realloc(w->buf, cap);
		if (!bigger) {
			w->failed = true;
			return;
		}
		w->buf = bigger;
		w->cap = cap;
	}
	w->buf[w->size++] = b;
}

/* The n low bits of v (n <= 32), highest first (19.2.1). */
static void put_bits(struct writer *w, unsigned n, uint32_t v)
{
	if (!n)
		return;
	w->acc = w->acc << n | (v & (uint32_t)((1ull << n) - 1));
	w->nbits += n;
	while (w->nbits >= 8) {
		w->nbits -= 8;
		put_byte(w, (uint8_t)(w->acc >> w->nbits));
	}
	w->acc &= (1ull << w->nbits) - 1;
}

/* ---- Huffman codes ---- */

struct code {
	uint8_t len[NC];
	uint16_t bits[NC];
	unsigned used; /* symbols with a nonzero frequency */
	unsigned only; /* the symbol, when used is 1 */
};

static const uint32_t *sort_weights; /* for by_weight: qsort passes no context */

static int by_weight(const void *a, const void *b)
{
	uint16_t x = *(const uint16_t *)a, y = *(const uint16_t *)b;

	if (sort_weights[x] != sort_weights[y])
		return sort_weights[x] < sort_weights[y] ? -1 : 1;
	return x < y ? -1 : 1;
}

/* Code lengths of an unlimited Huffman tree over the used symbols (at least two). The
 * leaves sorted by weight and the joined nodes, which are made in order of weight, form
 * two sorted queues: each step joins the two lightest fronts. Returns the deepest length. */
static unsigned tree_lengths(const uint32_t *freq, unsigned n, uint8_t *len)
{
	uint16_t leaf[NC];
	uint64_t weight[2 * NC];
	uint16_t parent[2 * NC], depth[2 * NC];
	unsigned m = 0, next_leaf = 0, next_node, made, deepest = 0;

	for (unsigned i = 0; i < n; i++) {
		len[i] = 0;
		if (freq[i])
			leaf[m++] = (uint16_t)i;
	}
	sort_weights = freq;
	qsort(leaf, m, sizeof(leaf[0]), by_weight);
	for (unsigned i = 0; i < m; i++)
		weight[i] = freq[leaf[i]];
	/* Nodes 0..m-1 are the leaves, m.. the joined nodes; the last one is the root. */
	next_node = made = m;
	for (unsigned k = 0; k + 1 < m; k++, made++) {
		weight[made] = 0;
		for (int pick = 0; pick < 2; pick++) {
			unsigned take;
			if (next_leaf < m &&
			    (next_node == made || weight[next_leaf] <= weight[next_node]))
				take = next_leaf++;
			else
				take = next_node++;
			weight[made] += weight[take];
			parent[take] = (uint16_t)made;
		}
	}
	depth[made - 1] = 0;
	for (unsigned k = made - 1; k-- > 0;) {
		depth[k] = (uint16_t)(depth[parent[k]] + 1);
		if (k < m) {
			len[leaf[k]] = (uint8_t)(depth[k] > 255 ? 255 : depth[k]);
			if (depth[k] > deepest)
				deepest = depth[k];
		}
	}
	return deepest;
}

/* Canonical codes: each length's codes follow the previous length's, shifted left, in
 * symbol order within a length (the decoder's order). */
static void assign_codes(struct code *c, unsigned n)
{
	uint16_t count[MAX_BITS + 1] = {0}, next[MAX_BITS + 2];

	for (unsigned i = 0; i < n; i++)
		count[c->len[i]]++;
	count[0] = 0;
	next[1] = 0;
	for (unsigned len = 1; len <= MAX_BITS; len++)
		next[len + 1] = (uint16_t)((next[len] + count[len]) << 1);
	for (unsigned i = 0; i < n; i++)
		c->bits[i] = c->len[i] ? next[c->len[i]]++ : 0;
}

/* The block's code for symbols 0..n-1: lengths of at most 16 bits, all zero when fewer
 * than two symbols are used (the format then names the one symbol, coded in no bits). */
static void build_code(struct code *c, const uint32_t *freq, unsigned n)
{
	uint32_t scaled[NC];

	c->used = 0;
	c->only = 0;
	for (unsigned i = 0; i < n; i++) {
		scaled[i] = freq[i];
		c->len[i] = 0;
		c->bits[i] = 0;
		if (freq[i]) {
			c->used++;
			c->only = i;
		}
	}
	if (c->used < 2)
		return;
	/* Halving keeps every used symbol (a nonzero frequency stays nonzero) and flattens
	 * the tree: at equal weights it is balanced, 9 levels for 510 symbols. */
	while (tree_lengths(scaled, n, c->len) > MAX_BITS)
		for (unsigned i = 0; i < n; i++)
			if (scaled[i])
				scaled[i] = (scaled[i] + 1) / 2;
	assign_codes(c, n);
}

static void put_symbol(struct writer *w, const struct code *c, unsigned symbol)
{
	put_bits(w, c->len[symbol], c->bits[symbol]);
}

/* How many code lengths the array sends: up to the last nonzero one. */
static unsigned array_size(const uint8_t *len, unsigned n)
{
	while (n && !len[n - 1])
		n--;
	return n;
}

/* An Extra or Position set length: 3 bits below 7, else (length - 4) 1s and a 0. */
static void put_pt_length(struct writer *w, unsigned len)
{
	if (len < 7)
		put_bits(w, 3, len);
	else
		put_bits(w, len - 3, ((1u << (len - 4)) - 1) << 1);
}

/* The Extra (special: after its 3rd length, a 2-bit count of the zero lengths that follow)
 * or Position set's code length array. */
static void put_pt_set(struct writer *w, const struct code *c, unsigned symbols, unsigned nbit,
		       bool special)
{
	unsigned n = array_size(c->len, symbols);

	if (c->used < 2) {
		put_bits(w, nbit, 0);
		put_bits(w, nbit, c->only);
		return;
	}
	put_bits(w, nbit, n);
	for (unsigned i = 0; i < n;) {
		put_pt_length(w, c->len[i++]);
		if (special && i == 3) {
			unsigned zeros = 0;
			while (zeros < 3 && i + zeros < n && !c->len[i + zeros])
				zeros++;
			put_bits(w, 2, zeros);
			i += zeros;
		}
	}
}

/* ---- The Char&Len set's code length array, as Extra symbols ---- */

struct extra_item {
	uint8_t symbol, nbits; /* an Extra symbol and the bits sent after it */
	uint16_t value;
};

/* Step 1 of the Char&Len lengths' coding (19.2.3.1): a length L as L + 2; runs of zero
 * lengths as 0 (one zero), 1 and 4 bits (3 to 18 zeros), 2 and 9 bits (20 or more); 19
 * zeros as 0 then 1 and 15. Returns the item count (at most NC + 1). */
static unsigned extra_items(const uint8_t *len, unsigned n, struct extra_item *items)
{
	unsigned count = 0;

	for (unsigned i = 0; i < n;) {
		unsigned run = 0;
		if (len[i]) {
			items[count++] = (struct extra_item){(uint8_t)(len[i++] + 2), 0, 0};
			continue;
		}
		while (i + run < n && !len[i + run])
			run++;
		i += run;
		if (run == 19) {
			items[count++] = (struct extra_item){0, 0, 0};
			run = 18;
		}
		if (run <= 2)
			while (run--)
				items[count++] = (struct extra_item){0, 0, 0};
		else if (run <= 18)
			items[count++] = (struct extra_item){1, 4, (uint16_t)(run - 3)};
		else
			items[count++] =
			    (struct extra_item){2, UEFI_COMPRESS_CBIT, (uint16_t)(run - 20)};
	}
	return count;
}

/* ---- Blocks ---- */

struct block {
	uint16_t symbol[BLOCK_TOKENS];	 /* Char&Len symbols */
	uint16_t position[BLOCK_TOKENS]; /* for strings: current - start - 1 */
	unsigned count;
	struct code c, p, t;
	struct extra_item items[NC + 1];
};

static unsigned bit_length(unsigned v)
{
	unsigned n = 0;

	while (v) {
		n++;
		v >>= 1;
	}
	return n;
}

static void build_block_codes(struct block *b, unsigned *nitems)
{
	uint32_t cf[NC] = {0}, pf[NP] = {0}, tf[NT] = {0};

	for (unsigned i = 0; i < b->count; i++) {
		cf[b->symbol[i]]++;
		if (b->symbol[i] >= 256)
			pf[bit_length(b->position[i])]++;
	}
	build_code(&b->c, cf, NC);
	build_code(&b->p, pf, NP);
	*nitems = 0;
	if (b->c.used >= 2)
		*nitems = extra_items(b->c.len, array_size(b->c.len, NC), b->items);
	for (unsigned i = 0; i < *nitems; i++)
		tf[b->items[i].symbol]++;
	build_code(&b->t, tf, NT);
}

static void put_c_set(struct writer *w, const struct block *b, unsigned nitems)
{
	if (b->c.used < 2) {
		put_bits(w, UEFI_COMPRESS_CBIT, 0);
		put_bits(w, UEFI_COMPRESS_CBIT, b->c.only);
		return;
	}
	put_bits(w, UEFI_COMPRESS_CBIT, array_size(b->c.len, NC));
	for (unsigned i = 0; i < nitems; i++) {
		put_symbol(w, &b->t, b->items[i].symbol);
		put_bits(w, b->items[i].nbits, b->items[i].value);
	}
}

static void put_block(struct writer *w, struct block *b)
{
	unsigned nitems;

	if (!b->count)
		return;
	build_block_codes(b, &nitems);
	put_bits(w, 16, b->count);
	put_pt_set(w, &b->t, NT, UEFI_COMPRESS_TBIT, true);
	put_c_set(w, b, nitems);
	put_pt_set(w, &b->p, NP, UEFI_COMPRESS_PBIT, false);
	for (unsigned i = 0; i < b->count; i++) {
		unsigned s = b->symbol[i], pos = b->position[i], bits;
		put_symbol(w, &b->c, s);
		if (s < 256)
			continue;
		bits = bit_length(pos);
		put_symbol(w, &b->p, bits);
		if (bits > 1)
			put_bits(w, bits - 1, pos);
	}
	b->count = 0;
}

static void add_token(struct writer *w, struct block *b, unsigned symbol, unsigned position)
{
	b->symbol[b->count] = (uint16_t)symbol;
	b->position[b->count] = (uint16_t)position;
	if (++b->count == BLOCK_TOKENS)
		put_block(w, b);
}

/* ---- LZ77 ---- */

struct matcher {
	const uint8_t *in;
	size_t size, inserted;
	int32_t head[1 << HASH_BITS];
	int32_t *prev; /* per position: the previous one with the same hash, or -1 */
};

static unsigned hash3(const uint8_t *p)
{
	return ((unsigned)p[0] << 10 ^ (unsigned)p[1] << 5 ^ p[2]) & ((1u << HASH_BITS) - 1);
}

/* Enters every position before `upto` into the chains. */
static void insert_upto(struct matcher *m, size_t upto)
{
	for (; m->inserted < upto; m->inserted++) {
		size_t i = m->inserted;
		if (i + MIN_MATCH > m->size)
			continue;
		unsigned h = hash3(m->in + i);
		m->prev[i] = m->head[h];
		m->head[h] = (int32_t)i;
	}
}

/* The longest earlier string within the window that matches at `at`; 0 when none of at
 * least MIN_MATCH. Its distance in *distance. */
static unsigned longest_match(struct matcher *m, size_t at, unsigned *distance)
{
	size_t limit = m->size - at < MAX_MATCH ? m->size - at : MAX_MATCH;
	const uint8_t *here = m->in + at;
	unsigned best = 0, depth = CHAIN_DEPTH;

	if (limit < MIN_MATCH)
		return 0;
	insert_upto(m, at);
	for (int32_t c = m->head[hash3(here)]; c >= 0 && depth--; c = m->prev[c]) {
		const uint8_t *there = m->in + c;
		unsigned len = 0;
		if (at - (size_t)c > MAX_DISTANCE)
			break;
		if (best && there[best] != here[best])
			continue;
		while (len < limit && there[len] == here[len])
			len++;
		if (len > best) {
			best = len;
			*distance = (unsigned)(at - (size_t)c);
			if (len == limit)
				break;
		}
	}
	return best >= MIN_MATCH ? best : 0;
}

static void lz77(struct writer *w, struct block *b, struct matcher *m)
{
	unsigned len, dist = 0, next_len = 0, next_dist = 0;
	bool have_next = false;

	for (size_t i = 0; i < m->size && !w->failed;) {
		if (have_next) {
			len = next_len;
			dist = next_dist;
		} else {
			len = longest_match(m, i, &dist);
		}
		have_next = false;
		if (len && i + 1 < m->size) {
			next_len = longest_match(m, i + 1, &next_dist);
			have_next = true;
			if (next_len > len)
				len = 0; /* a character now, the longer string next */
		}
		if (len) {
			add_token(w, b, len + 256 - MIN_MATCH, dist - 1);
			i += len;
			have_next = false;
		} else {
			add_token(w, b, m->in[i], 0);
			i++;
		}
	}
	put_block(w, b);
}

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

uint8_t *uefi_compress(const uint8_t *in, size_t size, size_t *out_size)
{
	struct writer w = {0};
	struct block *b = malloc(sizeof(*b));
	struct matcher *m = malloc(sizeof(*m));
	int32_t *prev = malloc((size ? size : 1) * sizeof(int32_t));

	if (size > UINT32_MAX || !b || !m || !prev)
		goto fail;
	b->count = 0;
	*m = (struct matcher){.in = in, .size = size, .prev = prev};
	memset(m->head, 0xff, sizeof(m->head));
	for (int i = 0; i < UEFI_COMPRESS_HEADER_SIZE; i++)
		put_byte(&w, 0);
	lz77(&w, b, m);
	/* Zero bits to the byte boundary, then the terminating zero byte (19.2.2). */
	put_bits(&w, (8 - w.nbits) & 7, 0);
	put_byte(&w, 0);
	if (w.failed || w.size - UEFI_COMPRESS_HEADER_SIZE > UINT32_MAX)
		goto fail;
	put_le32(w.buf, (uint32_t)(w.size - UEFI_COMPRESS_HEADER_SIZE));
	put_le32(w.buf + 4, (uint32_t)size);
	*out_size = w.size;
	free(prev);
	free(m);
	free(b);
	return w.buf;
fail:
	free(w.buf);
	free(prev);
	free(m);
	free(b);
	return NULL;
}
