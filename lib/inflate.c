/* DEFLATE decompression (RFC 1951), built for the fewest instructions per byte: the QEMU
 * reset stage unpacks the core with it on every boot, and virtual time counts
 * instructions.
 *
 * Codes are decoded through a table indexed by the next TABLE_BITS input bits, whose
 * entries say everything the symbol means (a literal's byte; a length's or distance's base
 * and extra bits; the end of the block); longer codes (rare) are walked one bit at a time
 * over the canonical code. The bits come through a 64-bit buffer topped up by one unaligned
 * load. While the input and the output have room for the longest pair, a fast loop decodes
 * with no bounds checks but the ones the data needs (the distance); the careful loop checks
 * everything and finishes the block. Everything lives on the stack. */
#include <ember/lib/inflate.h>

#define MAX_CODE_BITS 15
#define LIT_TABLE_BITS 11
#define DIST_TABLE_BITS 8
#define CODELEN_TABLE_BITS 7
#define LITLEN_CODES 288
#define DIST_CODES 32
#define CODELEN_CODES 19
#define END_OF_BLOCK 256
#define MAX_MATCH 258

/* A table entry: the code's length in bits 0-3, the extra bits in 4-7, the value in 8-23,
 * the kind as one of the top bits; 0 when the code is longer than the table or absent.
 * Literals have the sign bit: the fast loop tells them with one test. */
#define ENTRY_LENGTH(e) ((e)&15)
#define ENTRY_EXTRA(e) (((e) >> 4) & 15)
#define ENTRY_VALUE(e) (((e) >> 8) & 0xffff)
#define ENTRY_KIND(e) ((e)&0xf0000000u)
#define KIND_LITERAL 0x80000000u
#define KIND_BASE 0x40000000u /* a length or a distance: value + the extra bits */
#define KIND_END 0x20000000u
#define KIND_INVALID 0x10000000u /* a symbol the format reserves (286, 287; distances 30, 31) */
#define VALUE(v) ((uint32_t)(v) << 8)

struct huffman {
	uint16_t count[MAX_CODE_BITS + 1]; /* how many codes have each length */
	uint16_t symbol[LITLEN_CODES];	   /* the symbols in code order */
	const uint32_t *meaning;	   /* symbol -> entry without its code length */
	unsigned table_bits;
	uint32_t *table; /* the next table_bits bits (first bit lowest) -> entry */
};

struct bit_reader {
	const uint8_t *in, *end;
	uint64_t hold; /* bits not yet used, first bit lowest */
	unsigned bits; /* how many of them came from the input */
};

/* Unaligned little-endian access (x86-64 and the hosts Ember builds on). */
struct unaligned64 {
	uint64_t value;
} __attribute__((packed, may_alias));

struct unaligned128 {
	uint64_t value __attribute__((vector_size(16)));
} __attribute__((packed, may_alias));

static inline uint64_t load64(const uint8_t *p)
{
	return ((const struct unaligned64 *)p)->value;
}

static inline void store64(uint8_t *p, uint64_t value)
{
	((struct unaligned64 *)p)->value = value;
}

static inline void copy16(uint8_t *to, const uint8_t *from)
{
	((struct unaligned128 *)to)->value = ((const struct unaligned128 *)from)->value;
}

/* Tops the buffer up to at least 56 bits with one load (8 bytes of input must remain).
 * The bits of the last, partly taken byte lie above `bits` and are ORed in again,
 * unchanged, by the next refill. */
static inline void refill_fast(struct bit_reader *r)
{
	r->hold |= load64(r->in) << r->bits;
	r->in += (63 - r->bits) >> 3;
	r->bits |= 56;
}

/* The same anywhere: byte by byte near the end of the input. */
static inline void refill(struct bit_reader *r)
{
	if (r->end - r->in >= 8) {
		refill_fast(r);
		return;
	}
	while (r->bits <= 56 && r->in < r->end) {
		r->hold |= (uint64_t)*r->in++ << r->bits;
		r->bits += 8;
	}
}

static inline void drop_bits(struct bit_reader *r, unsigned n)
{
	r->hold >>= n;
	r->bits -= n;
}

/* The next n bits (n <= 32) from what the buffer holds; -1 when it holds fewer. */
static inline int64_t take_bits(struct bit_reader *r, unsigned n)
{
	uint64_t v;

	if (r->bits < n)
		return -1;
	v = r->hold & ((1ull << n) - 1);
	drop_bits(r, n);
	return (int64_t)v;
}

/* The same after a refill: for headers, whose fields are read one at a time. */
static int64_t get_bits(struct bit_reader *r, unsigned n)
{
	refill(r);
	return take_bits(r, n);
}

/* The low `length` bits of code in reverse order: swaps of halves, quarters, ... of 16
 * bits (fewer instructions than a loop over the bits; a table is built per block). */
static uint32_t reverse_bits(uint32_t code, unsigned length)
{
	code = (code & 0x5555) << 1 | (code >> 1 & 0x5555);
	code = (code & 0x3333) << 2 | (code >> 2 & 0x3333);
	code = (code & 0x0f0f) << 4 | (code >> 4 & 0x0f0f);
	code = (code & 0x00ff) << 8 | (code >> 8 & 0x00ff);
	return code >> (16 - length);
}

/* Builds the decoder for symbols 0..n-1 with the given code lengths (0: unused). False for
 * an over-subscribed set; incomplete sets are allowed (a lone distance code is legal), and
 * decoding a code they lack fails. */
static bool huffman_build(struct huffman *h, const uint8_t *lengths, unsigned n)
{
	uint16_t offset[MAX_CODE_BITS + 2];
	uint32_t code = 0, size = 1u << h->table_bits;
	int32_t left = 1;
	unsigned i, len;

	for (len = 0; len <= MAX_CODE_BITS; len++)
		h->count[len] = 0;
	for (i = 0; i < n; i++)
		h->count[lengths[i]]++;
	h->count[0] = 0;
	for (len = 1; len <= MAX_CODE_BITS; len++) {
		left = left * 2 - h->count[len];
		if (left < 0)
			return false;
	}
	offset[1] = 0;
	for (len = 1; len <= MAX_CODE_BITS; len++)
		offset[len + 1] = (uint16_t)(offset[len] + h->count[len]);
	for (i = 0; i < n; i++)
		if (lengths[i])
			h->symbol[offset[lengths[i]]++] = (uint16_t)i;

	/* Canonical codes: each length's codes follow the previous length's, shifted left. */
	i = 0;
	for (len = 1; len <= h->table_bits; len++) {
		for (unsigned k = 0; k < h->count[len]; k++, i++, code++) {
			uint32_t entry = h->meaning[h->symbol[i]] | len;
			for (uint32_t fill = reverse_bits(code, len); fill < size;
			     fill += 1u << len)
				h->table[fill] = entry;
		}
		code <<= 1;
	}
	/* The codes that fit took the first `code` (now as long as the index) of the indexes
	 * read first bit highest; the rest begin a longer code or none: empty entries. Only
	 * those are cleared, not the whole table first. */
	for (code >>= 1; code < size; code++)
		h->table[reverse_bits(code, h->table_bits)] = 0;
	return true;
}

/* A code longer than the table, one bit at a time from the first. */
static int decode_slow(struct bit_reader *r, const struct huffman *h)
{
	uint32_t code = 0, first = 0, index = 0;

	for (unsigned len = 1; len <= MAX_CODE_BITS; len++) {
		int64_t bit = take_bits(r, 1);
		if (bit < 0)
			return -1;
		code |= (uint32_t)bit;
		if (code - first < h->count[len])
			return h->symbol[index + code - first];
		index += h->count[len];
		first = (first + h->count[len]) << 1;
		code <<= 1;
	}
	return -1;
}

/* The next symbol's entry (without its code length), from what the buffer holds;
 * KIND_INVALID for a code the set lacks or input that ends inside a code. */
static uint32_t decode(struct bit_reader *r, const struct huffman *h)
{
	uint32_t entry = h->table[r->hold & ((1u << h->table_bits) - 1)];
	int sym;

	if (ENTRY_LENGTH(entry)) {
		if (ENTRY_LENGTH(entry) > r->bits)
			return KIND_INVALID;
		drop_bits(r, ENTRY_LENGTH(entry));
		return entry & ~15u;
	}
	sym = decode_slow(r, h);
	return sym < 0 ? KIND_INVALID : h->meaning[sym];
}

/* base + the entry's extra bits; -1 when the buffer holds too few. */
static int64_t with_extra(struct bit_reader *r, uint32_t entry)
{
	int64_t extra = take_bits(r, ENTRY_EXTRA(entry));

	return extra < 0 ? -1 : ENTRY_VALUE(entry) + extra;
}

struct output {
	uint8_t *start, *at, *end;
};

static bool stored_block(struct bit_reader *r, struct output *o)
{
	const uint8_t *from;
	size_t len;

	/* To the byte boundary; the buffer then holds whole bytes, given back to the input
	 * so that LEN, its one's complement and the data are read from there. */
	if (take_bits(r, r->bits & 7) < 0)
		return false;
	r->in -= r->bits >> 3;
	r->hold = 0;
	r->bits = 0;
	if (r->end - r->in < 4)
		return false;
	len = (size_t)(r->in[0] | r->in[1] << 8);
	if ((len ^ 0xffff) != (size_t)(r->in[2] | r->in[3] << 8))
		return false;
	from = r->in + 4;
	if (len > (size_t)(r->end - from) || len > (size_t)(o->end - o->at))
		return false;
	r->in = from + len;
	while (len >= 8) {
		store64(o->at, load64(from));
		o->at += 8;
		from += 8;
		len -= 8;
	}
	while (len--)
		*o->at++ = *from++;
	return true;
}

/* Appends length bytes from distance back. Sixteen or eight at a time when the source is
 * that far behind (each load reads only bytes already written); the stores may go up to
 * 15 bytes past the match, which the caller has room for. Byte by byte when the run
 * repeats itself closer than that. */
static inline void copy_match(uint8_t *to, size_t distance, size_t length)
{
	const uint8_t *from = to - distance;
	uint8_t *end = to + length;

	if (distance >= 16) {
		do {
			copy16(to, from);
			to += 16;
			from += 16;
		} while (to < end);
	} else if (distance >= 8) {
		do {
			store64(to, load64(from));
			to += 8;
			from += 8;
		} while (to < end);
	} else {
		while (to < end)
			*to++ = *from++;
	}
}

/* The low n bits, for extra bits: a load is fewer instructions than making the mask. */
static const uint32_t low_bits[16] = {0,   1,	3,    7,    15,	  31,	63,    127,
				      255, 511, 1023, 2047, 4095, 8191, 16383, 32767};

/* While the input has 16 bytes left and the output room for the longest match and the
 * copy's overshoot: literals and pairs whose codes are in the tables. Returns at anything
 * else (the end of the block, a long code, a bad symbol) for the careful loop, having
 * consumed nothing of it; false for a distance before the start. One refill per pair:
 * 56 bits hold the longest (an 11-bit table code, 5 extra bits, an 8-bit table code, 13
 * extra bits), and two literals. */
static bool fast_loop(struct bit_reader *r, struct output *o, const struct huffman *lit,
		      const struct huffman *dist)
{
	const uint32_t *lit_table = lit->table, *dist_table = dist->table;
	const uint8_t *in_limit, *start = o->start, *in = r->in;
	uint8_t *out = o->at, *out_limit;
	uint64_t hold = r->hold;
	unsigned bits = r->bits;
	bool ok = true;

	/* The limits only once they lie inside the buffers. */
	if (r->end - r->in < 16 || o->end - o->at < MAX_MATCH + 16)
		return true;
	in_limit = r->end - 16;
	out_limit = o->end - (MAX_MATCH + 16);
	while (in <= in_limit && out <= out_limit) {
		uint32_t entry, dentry;
		uint64_t h;
		unsigned b, n;
		size_t length, distance;

		hold |= load64(in) << bits;
		in += (63 - bits) >> 3;
		bits |= 56;
		entry = lit_table[hold & ((1u << LIT_TABLE_BITS) - 1)];
		if ((int32_t)entry < 0) {
			hold >>= ENTRY_LENGTH(entry);
			bits -= ENTRY_LENGTH(entry);
			*out++ = (uint8_t)(entry >> 8);
			entry = lit_table[hold & ((1u << LIT_TABLE_BITS) - 1)];
			if ((int32_t)entry < 0) {
				hold >>= ENTRY_LENGTH(entry);
				bits -= ENTRY_LENGTH(entry);
				*out++ = (uint8_t)(entry >> 8);
				continue;
			}
			/* The first literal took up to 11 bits: top the buffer up for a pair. */
			hold |= load64(in) << bits;
			in += (63 - bits) >> 3;
			bits |= 56;
		}
		if (!(entry & KIND_BASE))
			break;
		/* Decode the pair on copies: nothing is consumed unless it is whole. */
		n = ENTRY_LENGTH(entry);
		h = hold >> n;
		b = bits - n;
		length = ENTRY_VALUE(entry) + (h & low_bits[ENTRY_EXTRA(entry)]);
		h >>= ENTRY_EXTRA(entry);
		b -= ENTRY_EXTRA(entry);
		dentry = dist_table[h & ((1u << DIST_TABLE_BITS) - 1)];
		if (!(dentry & KIND_BASE))
			break;
		n = ENTRY_LENGTH(dentry);
		h >>= n;
		b -= n;
		distance = ENTRY_VALUE(dentry) + (h & low_bits[ENTRY_EXTRA(dentry)]);
		hold = h >> ENTRY_EXTRA(dentry);
		bits = b - ENTRY_EXTRA(dentry);
		if (distance > (size_t)(out - start)) {
			ok = false;
			break;
		}
		copy_match(out, distance, length);
		out += length;
	}
	r->hold = hold;
	r->bits = bits;
	r->in = in;
	o->at = out;
	return ok;
}

/* Literals and <length, distance> pairs up to the end-of-block code, every step checked. */
static bool compressed_block(struct bit_reader *r, struct output *o, const struct huffman *lit,
			     const struct huffman *dist)
{
	for (;;) {
		uint32_t entry;
		int64_t length, distance;

		if (!fast_loop(r, o, lit, dist))
			return false;
		refill(r);
		entry = decode(r, lit);
		if (ENTRY_KIND(entry) == KIND_LITERAL) {
			if (o->at == o->end)
				return false;
			*o->at++ = (uint8_t)ENTRY_VALUE(entry);
			continue;
		}
		if (ENTRY_KIND(entry) == KIND_END)
			return true;
		if (ENTRY_KIND(entry) != KIND_BASE || (length = with_extra(r, entry)) < 0)
			return false;
		entry = decode(r, dist);
		if (ENTRY_KIND(entry) != KIND_BASE || (distance = with_extra(r, entry)) < 0)
			return false;
		if (distance > o->at - o->start || length > o->end - o->at)
			return false;
		/* Byte by byte: the output may lack room for the wide copy's overshoot. */
		for (uint8_t *to = o->at, *end = to + length; to < end; to++)
			*to = to[-distance];
		o->at += length;
	}
}

/* What each symbol means: literals, the end of the block, lengths 3-258 (RFC 1951, 3.2.5),
 * two reserved symbols; distances 1-32768 and two reserved ones. */
static void symbol_meanings(uint32_t *litlen, uint32_t *distance)
{
	unsigned i, base = 3, extra;

	for (i = 0; i < END_OF_BLOCK; i++)
		litlen[i] = KIND_LITERAL | VALUE(i);
	litlen[END_OF_BLOCK] = KIND_END;
	/* Lengths: four codes per extra-bit count, from 0 extra bits for 257-264. */
	for (i = 0; i < 28; i++) {
		extra = i < 8 ? 0 : (i - 4) / 4;
		litlen[257 + i] = KIND_BASE | extra << 4 | VALUE(base);
		base += 1u << extra;
	}
	litlen[285] = KIND_BASE | VALUE(258);
	litlen[286] = litlen[287] = KIND_INVALID;
	/* Distances: two codes per extra-bit count, from 0 extra bits for 0-3. */
	for (i = 0, base = 1; i < 30; i++) {
		extra = i < 4 ? 0 : (i - 2) / 2;
		distance[i] = KIND_BASE | extra << 4 | VALUE(base);
		base += 1u << extra;
	}
	distance[30] = distance[31] = KIND_INVALID;
}

static bool fixed_codes(struct huffman *lit, struct huffman *dist)
{
	uint8_t lengths[LITLEN_CODES];
	unsigned i;

	for (i = 0; i < 144; i++)
		lengths[i] = 8;
	for (; i < 256; i++)
		lengths[i] = 9;
	for (; i < 280; i++)
		lengths[i] = 7;
	for (; i < LITLEN_CODES; i++)
		lengths[i] = 8;
	if (!huffman_build(lit, lengths, LITLEN_CODES))
		return false;
	for (i = 0; i < DIST_CODES; i++)
		lengths[i] = 5;
	return huffman_build(dist, lengths, DIST_CODES);
}

/* The code-length code's symbols mean themselves (values 0-18). */
static const uint32_t *codelen_meanings(uint32_t *meanings)
{
	for (unsigned i = 0; i < CODELEN_CODES; i++)
		meanings[i] = KIND_LITERAL | VALUE(i);
	return meanings;
}

/* The code lengths of a dynamic block, themselves Huffman coded (RFC 1951, 3.2.7). */
static bool dynamic_codes(struct bit_reader *r, struct huffman *lit, struct huffman *dist)
{
	static const uint8_t order[CODELEN_CODES] = {16, 17, 18, 0, 8,	7, 9,  6, 10, 5,
						     11, 4,  12, 3, 13, 2, 14, 1, 15};
	uint8_t lengths[LITLEN_CODES + DIST_CODES];
	uint32_t codelen_meaning[CODELEN_CODES];
	const uint32_t *litlen_meaning = lit->meaning;
	int64_t hlit = get_bits(r, 5), hdist = get_bits(r, 5), hclen = get_bits(r, 4);
	unsigned i, total;

	if (hlit < 0 || hdist < 0 || hclen < 0 || hlit > 29 || hdist > 29)
		return false;
	hlit += 257;
	hdist += 1;
	total = (unsigned)(hlit + hdist);
	for (i = 0; i < CODELEN_CODES; i++) {
		int64_t len = i < (unsigned)hclen + 4 ? get_bits(r, 3) : 0;
		if (len < 0)
			return false;
		lengths[order[i]] = (uint8_t)len;
	}
	/* The literal/length table decodes the code-length code for now, with as few entries
	 * as its longest code (7 bits) needs: filling the table costs time. */
	lit->meaning = codelen_meanings(codelen_meaning);
	lit->table_bits = CODELEN_TABLE_BITS;
	if (!huffman_build(lit, lengths, CODELEN_CODES))
		goto fail;
	for (i = 0; i < total;) {
		/* 16: the previous length 3-6 times; 17 and 18: zeros, 3-10 and 11-138 times. */
		static const uint8_t repeat_bits[3] = {2, 3, 7}, repeat_base[3] = {3, 3, 11};
		uint32_t entry, sym;
		int64_t extra;
		unsigned repeat;
		uint8_t value = 0;

		refill(r);
		entry = decode(r, lit);
		if (ENTRY_KIND(entry) != KIND_LITERAL)
			goto fail;
		sym = ENTRY_VALUE(entry);
		if (sym < 16) {
			lengths[i++] = (uint8_t)sym;
			continue;
		}
		if (sym == 16 && i == 0)
			goto fail;
		if (sym == 16)
			value = lengths[i - 1];
		extra = take_bits(r, repeat_bits[sym - 16]);
		if (extra < 0)
			goto fail;
		repeat = repeat_base[sym - 16] + (unsigned)extra;
		if (i + repeat > total)
			goto fail;
		while (repeat--)
			lengths[i++] = value;
	}
	lit->meaning = litlen_meaning;
	lit->table_bits = LIT_TABLE_BITS;
	if (!lengths[END_OF_BLOCK])
		return false;
	return huffman_build(lit, lengths, (unsigned)hlit) &&
	       huffman_build(dist, lengths + hlit, (unsigned)hdist);
fail:
	lit->meaning = litlen_meaning;
	lit->table_bits = LIT_TABLE_BITS;
	return false;
}

bool inflate_raw(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size, size_t *produced)
{
	struct bit_reader r;
	struct output o;
	uint32_t lit_table[1u << LIT_TABLE_BITS], dist_table[1u << DIST_TABLE_BITS];
	uint32_t lit_meaning[LITLEN_CODES], dist_meaning[DIST_CODES];
	struct huffman lit, dist;
	int64_t final;

	if (!in || (!out && out_size))
		return false;
	r.in = in;
	r.end = in + in_size;
	r.hold = 0;
	r.bits = 0;
	/* No output buffer is an empty one (and NULL + 0 is undefined). */
	o.start = o.at = o.end = out;
	if (out_size)
		o.end = out + out_size;
	/* Field by field: an initializer would zero the arrays too (a memset the reset stage
	 * lacks). */
	lit.meaning = lit_meaning;
	lit.table_bits = LIT_TABLE_BITS;
	lit.table = lit_table;
	dist.meaning = dist_meaning;
	dist.table_bits = DIST_TABLE_BITS;
	dist.table = dist_table;
	symbol_meanings(lit_meaning, dist_meaning);
	do {
		int64_t type;
		bool ok;

		final = get_bits(&r, 1);
		type = get_bits(&r, 2);
		if (final < 0 || type < 0)
			return false;
		if (type == 0)
			ok = stored_block(&r, &o);
		else if (type == 1)
			ok = fixed_codes(&lit, &dist) && compressed_block(&r, &o, &lit, &dist);
		else if (type == 2)
			ok =
			    dynamic_codes(&r, &lit, &dist) && compressed_block(&r, &o, &lit, &dist);
		else
			ok = false;
		if (!ok)
			return false;
	} while (!final);
	*produced = (size_t)(o.at - o.start);
	return true;
}
