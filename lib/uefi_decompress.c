/* UEFI decompression (UEFI 2.10, 19.2): bits are taken from the most significant bit of
 * each byte; every block starts with its symbol count and three code length arrays (Extra,
 * Char&Len, Position sets) of canonical Huffman codes, then its characters and pointers.
 * Codes are decoded through a table indexed by the next LOOKUP_BITS bits; longer codes
 * walk the canonical code. Input past the compressed size reads as zeros but counts: a
 * stream that needs those bits is refused, so every loop is bounded by the input or the
 * output. */
#include <ember/lib/uefi_decompress.h>

#include <stdalign.h>
#include <stdbool.h>

#define NC UEFI_COMPRESS_NC
#define NP UEFI_COMPRESS_NP
#define NT UEFI_COMPRESS_NT
#define CBIT UEFI_COMPRESS_CBIT
#define PBIT UEFI_COMPRESS_PBIT
#define TBIT UEFI_COMPRESS_TBIT
#define MAX_BITS UEFI_COMPRESS_MAX_CODE_BITS
#define LOOKUP_BITS 10
#define NO_SYMBOL 0xffff
/* A Char&Len symbol of 256 or more is a string length: symbol - 253 (19.2.3.2). */
#define LENGTH_BIAS (256 - UEFI_COMPRESS_MIN_MATCH)
/* The Extra set's code length array has a 2-bit run of zero lengths after its 3rd. */
#define EXTRA_SPECIAL 3
#define NO_SPECIAL 0

struct huffman {
	uint16_t count[MAX_BITS + 1]; /* how many codes have each length */
	uint16_t symbol[NC];	      /* the symbols in code order */
	/* The next LOOKUP_BITS bits -> symbol << 5 | length; 0 when the code is longer. */
	uint16_t lookup[1 << LOOKUP_BITS];
	uint16_t symbols; /* the size of the set */
	bool single;	  /* the block names one symbol, coded in zero bits */
	uint16_t only;	  /* that symbol (checked against the set when used) */
};

struct scratch {
	struct huffman extra, char_len, position;
	uint8_t lengths[NC];
};

struct bit_reader {
	const uint8_t *in;
	size_t size, pos;     /* bytes loaded into hold, counting the zeros past the end */
	uint64_t hold;	      /* the next bits, first at the top */
	unsigned count;	      /* bits in hold */
	uint64_t used, limit; /* bits taken; bits the input holds */
};

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void refill(struct bit_reader *r)
{
	while (r->count <= 56) {
		uint64_t byte = r->pos < r->size ? r->in[r->pos] : 0;
		r->pos++;
		r->hold |= byte << (56 - r->count);
		r->count += 8;
	}
}

/* The next n bits (n <= 16), not taken. */
static uint32_t peek_bits(struct bit_reader *r, unsigned n)
{
	refill(r);
	return n ? (uint32_t)(r->hold >> (64 - n)) : 0;
}

static void skip_bits(struct bit_reader *r, unsigned n)
{
	r->hold <<= n;
	r->count -= n;
	r->used += n;
}

static uint32_t get_bits(struct bit_reader *r, unsigned n)
{
	uint32_t v = peek_bits(r, n);

	skip_bits(r, n);
	return v;
}

static bool overrun(const struct bit_reader *r)
{
	return r->used > r->limit;
}

/* Fills the lookup table with the codes of at most LOOKUP_BITS bits, in canonical order:
 * each length's codes follow the previous length's, shifted left. */
static void huffman_fill_lookup(struct huffman *h)
{
	uint32_t code = 0, i = 0;

	for (unsigned k = 0; k < (1u << LOOKUP_BITS); k++)
		h->lookup[k] = 0;
	for (unsigned len = 1; len <= LOOKUP_BITS; len++) {
		for (unsigned k = 0; k < h->count[len]; k++, i++, code++) {
			uint32_t first = code << (LOOKUP_BITS - len);
			uint32_t end = (code + 1) << (LOOKUP_BITS - len);
			for (uint32_t e = first; e < end; e++)
				h->lookup[e] = (uint16_t)(h->symbol[i] << 5 | len);
		}
		code <<= 1;
	}
}

/* Builds the decoder of symbols 0..n-1 from their code lengths (each <= 16, 0: unused).
 * The format's codes are complete (Huffman codes of two or more symbols): anything else,
 * over- or under-subscribed, is refused. */
static bool huffman_build(struct huffman *h, const uint8_t *lengths, unsigned n)
{
	uint16_t offset[MAX_BITS + 2];
	uint32_t kraft = 0;

	for (unsigned len = 0; len <= MAX_BITS; len++)
		h->count[len] = 0;
	for (unsigned i = 0; i < n; i++)
		h->count[lengths[i]]++;
	h->count[0] = 0;
	for (unsigned len = 1; len <= MAX_BITS; len++)
		kraft += (uint32_t)h->count[len] << (MAX_BITS - len);
	if (kraft != 1u << MAX_BITS)
		return false;
	offset[1] = 0;
	for (unsigned len = 1; len <= MAX_BITS; len++)
		offset[len + 1] = (uint16_t)(offset[len] + h->count[len]);
	for (unsigned i = 0; i < n; i++)
		if (lengths[i])
			h->symbol[offset[lengths[i]]++] = (uint16_t)i;
	h->symbols = (uint16_t)n;
	h->single = false;
	huffman_fill_lookup(h);
	return true;
}

/* A code longer than LOOKUP_BITS: the canonical walk over the next 16 bits. */
static unsigned decode_long(struct bit_reader *r, const struct huffman *h, uint32_t next)
{
	uint32_t code = 0, first = 0, index = 0;

	for (unsigned len = 1; len <= MAX_BITS; len++) {
		code |= (next >> (MAX_BITS - len)) & 1;
		if (code - first < h->count[len]) {
			skip_bits(r, len);
			return h->symbol[index + code - first];
		}
		index += h->count[len];
		first = (first + h->count[len]) << 1;
		code <<= 1;
	}
	return NO_SYMBOL; /* cannot happen with a complete code */
}

/* The next symbol of a set; NO_SYMBOL when it is outside the set (a lone symbol can be). */
static unsigned decode(struct bit_reader *r, const struct huffman *h)
{
	uint32_t next;
	uint16_t entry;

	if (h->single)
		return h->only < h->symbols ? h->only : NO_SYMBOL;
	next = peek_bits(r, MAX_BITS);
	entry = h->lookup[next >> (MAX_BITS - LOOKUP_BITS)];
	if (!entry)
		return decode_long(r, h, next);
	skip_bits(r, entry & 31);
	return entry >> 5;
}

/* One code length of the Extra or Position set: 3 bits, and when they say 7, one more for
 * each further 1 bit up to a 0 (19.2.3.1). */
static int read_pt_length(struct bit_reader *r)
{
	unsigned len = get_bits(r, 3);

	if (len == 7)
		while (get_bits(r, 1))
			if (++len > MAX_BITS || overrun(r))
				return -1;
	return (int)len;
}

/* The Extra (special 3) or Position (no special) set's size and code lengths. */
static enum uefi_decompress_result read_pt_set(struct bit_reader *r, struct huffman *h,
					       uint8_t *lengths, unsigned symbols, unsigned nbit,
					       unsigned special)
{
	unsigned n = get_bits(r, nbit), i = 0;

	h->symbols = (uint16_t)symbols;
	if (n == 0) {
		h->single = true;
		h->only = (uint16_t)get_bits(r, nbit);
		return overrun(r) ? UEFI_DECOMPRESS_TRUNCATED : UEFI_DECOMPRESS_OK;
	}
	if (n > symbols)
		return UEFI_DECOMPRESS_BAD_TABLE;
	while (i < n) {
		int len = read_pt_length(r);
		if (len < 0)
			return overrun(r) ? UEFI_DECOMPRESS_TRUNCATED : UEFI_DECOMPRESS_BAD_TABLE;
		lengths[i++] = (uint8_t)len;
		if (i == special) {
			/* Zero lengths may run past n (an encoder counts them up to the 6th). */
			unsigned zeros = get_bits(r, 2);
			if (zeros > symbols - i)
				return UEFI_DECOMPRESS_BAD_TABLE;
			while (zeros--)
				lengths[i++] = 0;
		}
	}
	if (overrun(r))
		return UEFI_DECOMPRESS_TRUNCATED;
	while (i < symbols)
		lengths[i++] = 0;
	return huffman_build(h, lengths, symbols) ? UEFI_DECOMPRESS_OK : UEFI_DECOMPRESS_BAD_TABLE;
}

/* How many zero lengths an Extra symbol of 0, 1 or 2 stands for (19.2.3.1). */
static unsigned zero_run(struct bit_reader *r, unsigned extra)
{
	if (extra == 0)
		return 1;
	if (extra == 1)
		return get_bits(r, 4) + 3;
	return get_bits(r, CBIT) + 20;
}

/* The Char&Len set's code lengths, coded with the Extra set's code. */
static enum uefi_decompress_result read_c_set(struct bit_reader *r, struct scratch *s)
{
	unsigned n = get_bits(r, CBIT), i = 0;

	s->char_len.symbols = NC;
	if (n == 0) {
		s->char_len.single = true;
		s->char_len.only = (uint16_t)get_bits(r, CBIT);
		return overrun(r) ? UEFI_DECOMPRESS_TRUNCATED : UEFI_DECOMPRESS_OK;
	}
	if (n > NC)
		return UEFI_DECOMPRESS_BAD_TABLE;
	while (i < n) {
		unsigned extra = decode(r, &s->extra);
		if (extra == NO_SYMBOL)
			return UEFI_DECOMPRESS_BAD_SYMBOL;
		if (extra <= 2) {
			unsigned zeros = zero_run(r, extra);
			if (zeros > n - i)
				return UEFI_DECOMPRESS_BAD_TABLE;
			while (zeros--)
				s->lengths[i++] = 0;
		} else {
			if (extra - 2 > MAX_BITS)
				return UEFI_DECOMPRESS_BAD_TABLE;
			s->lengths[i++] = (uint8_t)(extra - 2);
		}
		if (overrun(r))
			return UEFI_DECOMPRESS_TRUNCATED;
	}
	while (i < NC)
		s->lengths[i++] = 0;
	return huffman_build(&s->char_len, s->lengths, NC) ? UEFI_DECOMPRESS_OK
							   : UEFI_DECOMPRESS_BAD_TABLE;
}

/* A block header: its symbol count and three code length arrays. */
static enum uefi_decompress_result read_block_header(struct bit_reader *r, struct scratch *s,
						     uint32_t *block_left)
{
	enum uefi_decompress_result res;

	*block_left = get_bits(r, 16);
	if (*block_left == 0)
		return overrun(r) ? UEFI_DECOMPRESS_TRUNCATED : UEFI_DECOMPRESS_BAD_TABLE;
	res = read_pt_set(r, &s->extra, s->lengths, NT, TBIT, EXTRA_SPECIAL);
	if (res == UEFI_DECOMPRESS_OK)
		res = read_c_set(r, s);
	if (res == UEFI_DECOMPRESS_OK)
		res = read_pt_set(r, &s->position, s->lengths, NP, PBIT, NO_SPECIAL);
	return res;
}

struct output {
	uint8_t *out;
	uint32_t size, pos;
};

/* A pointer: its position (a bit length coded in the Position set, then the bits below
 * the top one), then the copy, which may overlap what it writes. */
static enum uefi_decompress_result copy_string(struct bit_reader *r, struct scratch *s,
					       struct output *o, unsigned length)
{
	unsigned bits = decode(r, &s->position);
	uint32_t position;
	uint8_t *from;

	if (bits == NO_SYMBOL)
		return UEFI_DECOMPRESS_BAD_SYMBOL;
	position = bits <= 1 ? bits : (1u << (bits - 1)) + get_bits(r, bits - 1);
	if (overrun(r))
		return UEFI_DECOMPRESS_TRUNCATED;
	if (position >= o->pos || length > o->size - o->pos)
		return UEFI_DECOMPRESS_BAD_POINTER;
	from = o->out + o->pos - position - 1;
	for (unsigned i = 0; i < length; i++)
		o->out[o->pos + i] = from[i];
	o->pos += length;
	return UEFI_DECOMPRESS_OK;
}

static enum uefi_decompress_result decode_blocks(struct bit_reader *r, struct scratch *s,
						 struct output *o)
{
	enum uefi_decompress_result res = UEFI_DECOMPRESS_OK;
	uint32_t block_left = 0;
	unsigned symbol;

	while (o->pos < o->size && res == UEFI_DECOMPRESS_OK) {
		if (!block_left) {
			res = read_block_header(r, s, &block_left);
			if (res != UEFI_DECOMPRESS_OK)
				break;
		}
		symbol = decode(r, &s->char_len);
		block_left--;
		if (symbol == NO_SYMBOL)
			res = UEFI_DECOMPRESS_BAD_SYMBOL;
		else if (symbol < 256)
			o->out[o->pos++] = (uint8_t)symbol;
		else
			res = copy_string(r, s, o, symbol - LENGTH_BIAS);
		if (res == UEFI_DECOMPRESS_OK && overrun(r))
			res = UEFI_DECOMPRESS_TRUNCATED;
	}
	return res;
}

enum uefi_decompress_result uefi_decompress_get_info(const void *src, size_t src_size,
						     uint32_t *dst_size, uint32_t *scratch_size)
{
	const uint8_t *p = src;

	if (src_size < UEFI_COMPRESS_HEADER_SIZE || rd32(p) > src_size - UEFI_COMPRESS_HEADER_SIZE)
		return UEFI_DECOMPRESS_BAD_HEADER;
	*dst_size = rd32(p + 4);
	*scratch_size = (uint32_t)(sizeof(struct scratch) + alignof(struct scratch));
	return UEFI_DECOMPRESS_OK;
}

enum uefi_decompress_result uefi_decompress(const void *src, size_t src_size, void *dst,
					    size_t dst_size, void *scratch, size_t scratch_size)
{
	const uint8_t *p = src;
	uint32_t orig, need;
	uintptr_t at = (uintptr_t)scratch;
	struct bit_reader r = {0};
	struct output o;

	if (uefi_decompress_get_info(src, src_size, &orig, &need) != UEFI_DECOMPRESS_OK)
		return UEFI_DECOMPRESS_BAD_HEADER;
	if (dst_size < orig || scratch_size < need)
		return UEFI_DECOMPRESS_BAD_BUFFER;
	r.in = p + UEFI_COMPRESS_HEADER_SIZE;
	r.size = rd32(p);
	r.limit = (uint64_t)r.size * 8;
	o = (struct output){dst, orig, 0};
	at = (at + alignof(struct scratch) - 1) & ~(uintptr_t)(alignof(struct scratch) - 1);
	return decode_blocks(&r, (struct scratch *)at, &o);
}

const char *uefi_decompress_result_name(enum uefi_decompress_result result)
{
	switch (result) {
	case UEFI_DECOMPRESS_OK:
		return "success";
	case UEFI_DECOMPRESS_BAD_HEADER:
		return "header shorter than its sizes";
	case UEFI_DECOMPRESS_BAD_BUFFER:
		return "buffer too small";
	case UEFI_DECOMPRESS_BAD_TABLE:
		return "bad code length array";
	case UEFI_DECOMPRESS_BAD_SYMBOL:
		return "symbol outside its set";
	case UEFI_DECOMPRESS_BAD_POINTER:
		return "string outside the data";
	case UEFI_DECOMPRESS_TRUNCATED:
		return "truncated";
	}
	return "unknown";
}
