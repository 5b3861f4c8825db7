/* DEFLATE decompression (RFC 1951). Codes are decoded through a table indexed by the next
 * LOOKUP_BITS input bits, which holds every code up to that length; longer codes (rare)
 * are walked one bit at a time over the canonical code. Everything lives on the stack. */
#include <ember/lib/inflate.h>

#define MAX_CODE_BITS 15
#define LOOKUP_BITS 10
#define LITLEN_CODES 288
#define DIST_CODES 32
#define CODELEN_CODES 19
#define END_OF_BLOCK 256

struct huffman {
	uint16_t count[MAX_CODE_BITS + 1]; /* how many codes have each length */
	uint16_t symbol[LITLEN_CODES];	   /* the symbols in code order */
	/* The next LOOKUP_BITS bits (first bit lowest) -> symbol << 4 | code length; 0 when
	 * the code is longer. */
	uint16_t lookup[1 << LOOKUP_BITS];
};

struct bit_reader {
	const uint8_t *in;
	size_t size, pos;
	uint64_t hold; /* bits not yet used, first bit lowest */
	unsigned bits; /* how many of them came from the input */
};

/* Unaligned little-endian 64-bit access (x86-64 and the hosts Ember builds on). */
struct unaligned64 {
	uint64_t value;
} __attribute__((packed, may_alias));

static inline uint64_t load64(const uint8_t *p)
{
	return ((const struct unaligned64 *)p)->value;
}

static inline void store64(uint8_t *p, uint64_t value)
{
	((struct unaligned64 *)p)->value = value;
}

/* Tops the buffer up to at least 57 bits, or to the end of the input. With 8 bytes left,
 * one load does it: the bits of the last, partly taken byte lie above `bits` and are
 * ORed in again, unchanged, by the next refill. */
static inline void refill(struct bit_reader *r)
{
	if (r->size - r->pos >= 8) {
		r->hold |= load64(r->in + r->pos) << r->bits;
		r->pos += (63 - r->bits) >> 3;
		r->bits |= 56;
		return;
	}
	while (r->bits <= 56 && r->pos < r->size) {
		r->hold |= (uint64_t)r->in[r->pos++] << r->bits;
		r->bits += 8;
	}
}

/* The next n bits (n <= 32) from what the buffer holds; -1 when it holds fewer. */
static inline int64_t take_bits(struct bit_reader *r, unsigned n)
{
	uint64_t v;

	if (r->bits < n)
		return -1;
	v = r->hold & ((1ull << n) - 1);
	r->hold >>= n;
	r->bits -= n;
	return (int64_t)v;
}

/* The same after a refill: for headers, whose fields are read one at a time. */
static int64_t get_bits(struct bit_reader *r, unsigned n)
{
	refill(r);
	return take_bits(r, n);
}

static uint32_t reverse_bits(uint32_t code, unsigned length)
{
	uint32_t r = 0;

	while (length--) {
		r = (r << 1) | (code & 1);
		code >>= 1;
	}
	return r;
}

/* Builds the decoder for symbols 0..n-1 with the given code lengths (0: unused). False for
 * an over-subscribed set; incomplete sets are allowed (a lone distance code is legal), and
 * decoding a code they lack fails. */
static bool huffman_build(struct huffman *h, const uint8_t *lengths, unsigned n)
{
	uint16_t offset[MAX_CODE_BITS + 2];
	uint32_t code = 0;
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

	for (i = 0; i < (1u << LOOKUP_BITS); i++)
		h->lookup[i] = 0;
	/* Canonical codes: each length's codes follow the previous length's, shifted left. */
	i = 0;
	for (len = 1; len <= LOOKUP_BITS; len++) {
		for (unsigned k = 0; k < h->count[len]; k++, i++, code++) {
			uint32_t first = reverse_bits(code, len);
			for (uint32_t fill = first; fill < (1u << LOOKUP_BITS); fill += 1u << len)
				h->lookup[fill] = (uint16_t)(h->symbol[i] << 4 | len);
		}
		code <<= 1;
	}
	return true;
}

/* A code longer than LOOKUP_BITS, one bit at a time from the first (after a refill). */
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

/* The next symbol, after a refill; -1 for a code the set lacks or input that ends inside
 * a code. */
static inline int decode(struct bit_reader *r, const struct huffman *h)
{
	uint16_t entry;
	unsigned len;

	entry = h->lookup[r->hold & ((1u << LOOKUP_BITS) - 1)];
	if (!entry)
		return decode_slow(r, h);
	len = entry & 15;
	if (len > r->bits)
		return -1;
	r->hold >>= len;
	r->bits -= len;
	return entry >> 4;
}

struct output {
	uint8_t *out;
	size_t size, pos;
};

static bool stored_block(struct bit_reader *r, struct output *o)
{
	int64_t len, nlen;

	/* To the byte boundary, then LEN and its one's complement. */
	if (get_bits(r, r->bits & 7) < 0)
		return false;
	len = get_bits(r, 16);
	nlen = get_bits(r, 16);
	if (len < 0 || nlen < 0 || (len ^ 0xffff) != nlen || (size_t)len > o->size - o->pos)
		return false;
	while (len--) {
		int64_t byte = get_bits(r, 8);
		if (byte < 0)
			return false;
		o->out[o->pos++] = (uint8_t)byte;
	}
	return true;
}

static const uint16_t length_base[29] = {3,  4,	 5,  6,	  7,   8,   9,	 10,  11, 13,
					 15, 17, 19, 23,  27,  31,  35,	 43,  51, 59,
					 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
					 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t dist_base[30] = {
    1,	 2,   3,   4,	5,   7,	   9,	 13,   17,   25,   33,	 49,   65,    97,    129,
    193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const uint8_t dist_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2,	3,  3,	4,  4,	5,  5,	6,
				       6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

/* Appends length bytes from distance back. Eight at a time when the source is at least
 * eight behind (each load reads only bytes already written) and the output has room for
 * the last store's overshoot; else byte by byte, as a run may repeat itself. */
static void copy_match(struct output *o, size_t distance, size_t length)
{
	uint8_t *to = o->out + o->pos;
	const uint8_t *from = to - distance;

	o->pos += length;
	if (distance >= 8 && o->size - o->pos >= 8) {
		for (size_t done = 0; done < length; done += 8)
			store64(to + done, load64(from + done));
		return;
	}
	while (length--)
		*to++ = *from++;
}

/* Literals and <length, distance> pairs up to the end-of-block code. One refill per pair:
 * 57 bits hold the longest (a 15-bit code, 5 extra bits, a 15-bit code, 13 extra bits). */
static bool compressed_block(struct bit_reader *reader, struct output *output,
			     const struct huffman *lit, const struct huffman *dist)
{
	/* Local copies: the output's byte stores may alias anything reached through a
	 * pointer, which would make the compiler reload the bit buffer after each one. */
	struct bit_reader bits = *reader, *r = &bits;
	struct output out = *output, *o = &out;
	bool ok = false;

	for (;;) {
		int sym;
		int64_t extra;
		size_t length, distance;

		refill(r);
		sym = decode(r, lit);
		if (sym < 0)
			break;
		if (sym < END_OF_BLOCK) {
			if (o->pos == o->size)
				break;
			o->out[o->pos++] = (uint8_t)sym;
			continue;
		}
		if (sym == END_OF_BLOCK) {
			ok = true;
			break;
		}
		sym -= END_OF_BLOCK + 1;
		if (sym >= 29 || (extra = take_bits(r, length_extra[sym])) < 0)
			break;
		length = length_base[sym] + (size_t)extra;
		sym = decode(r, dist);
		if (sym < 0 || sym >= 30 || (extra = take_bits(r, dist_extra[sym])) < 0)
			break;
		distance = dist_base[sym] + (size_t)extra;
		if (distance > o->pos || length > o->size - o->pos)
			break;
		copy_match(o, distance, length);
	}
	*reader = bits;
	*output = out;
	return ok;
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

/* The code lengths of a dynamic block, themselves Huffman coded (RFC 1951, 3.2.7). */
static bool dynamic_codes(struct bit_reader *r, struct huffman *lit, struct huffman *dist)
{
	static const uint8_t order[CODELEN_CODES] = {16, 17, 18, 0, 8,	7, 9,  6, 10, 5,
						     11, 4,  12, 3, 13, 2, 14, 1, 15};
	uint8_t lengths[LITLEN_CODES + DIST_CODES];
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
	if (!huffman_build(lit, lengths, CODELEN_CODES))
		return false;
	for (i = 0; i < total;) {
		/* 16: the previous length 3-6 times; 17 and 18: zeros, 3-10 and 11-138 times. */
		static const uint8_t repeat_bits[3] = {2, 3, 7}, repeat_base[3] = {3, 3, 11};
		int sym;
		int64_t extra;
		unsigned repeat;
		uint8_t value = 0;

		refill(r);
		sym = decode(r, lit);
		if (sym < 0)
			return false;
		if (sym < 16) {
			lengths[i++] = (uint8_t)sym;
			continue;
		}
		if (sym == 16 && i == 0)
			return false;
		if (sym == 16)
			value = lengths[i - 1];
		extra = take_bits(r, repeat_bits[sym - 16]);
		if (extra < 0)
			return false;
		repeat = repeat_base[sym - 16] + (unsigned)extra;
		if (i + repeat > total)
			return false;
		while (repeat--)
			lengths[i++] = value;
	}
	if (!lengths[END_OF_BLOCK])
		return false;
	return huffman_build(lit, lengths, (unsigned)hlit) &&
	       huffman_build(dist, lengths + hlit, (unsigned)hdist);
}

bool inflate_raw(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size, size_t *produced)
{
	struct bit_reader r = {in, in_size, 0, 0, 0};
	struct output o = {out, out_size, 0};
	struct huffman lit, dist;
	int64_t final;

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
	*produced = o.pos;
	return true;
}
