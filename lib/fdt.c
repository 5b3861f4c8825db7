/* The flattened device tree reader (include/ember/lib/fdt.h). The structure block is a
 * sequence of big-endian 32-bit tokens; each read checks it stays inside the block. */
#include <ember/lib/fdt.h>
#include <ember/lib/str.h>

#define FDT_MAGIC 0xd00dfeed
#define FDT_HEADER_SIZE 40
#define FDT_BEGIN_NODE 1
#define FDT_END_NODE 2
#define FDT_PROP 3
#define FDT_NOP 4
#define FDT_END 9
#define FDT_MAX_DEPTH 64

static UINT32 be32(const UINT8 *p)
{
	return (UINT32)p[0] << 24 | (UINT32)p[1] << 16 | (UINT32)p[2] << 8 | p[3];
}

bool fdt_open(struct fdt *f, const void *blob, size_t size)
{
	const UINT8 *b = blob;
	UINT32 total;

	if (!blob || size < FDT_HEADER_SIZE || be32(b) != FDT_MAGIC)
		return false;
	total = be32(b + 4);
	/* Version 16 and later all read as 16 (last_comp_version). */
	if (total < FDT_HEADER_SIZE || total > size || be32(b + 24) > 16)
		return false;
	f->blob = b;
	f->size = total;
	f->struct_off = be32(b + 8);
	f->strings_off = be32(b + 12);
	f->strings_size = be32(b + 32);
	f->struct_size = be32(b + 36);
	f->rsv_off = be32(b + 16);
	if (f->struct_off > total || f->struct_size > total - f->struct_off ||
	    f->strings_off > total || f->strings_size > total - f->strings_off ||
	    (f->struct_off | f->struct_size) & 3)
		return false;
	return true;
}

/* The token at offset off of the structure block, or FDT_END past its end. */
static UINT32 token_at(const struct fdt *f, UINT32 off)
{
	if (off > f->struct_size || f->struct_size - off < 4)
		return FDT_END;
	return be32(f->blob + f->struct_off + off);
}

/* Length of the NUL-terminated string at off of the block [base, base + limit), or -1. */
static long string_len(const struct fdt *f, UINT32 base, UINT32 limit, UINT32 off)
{
	for (UINT32 i = off; i < limit; i++)
		if (f->blob[base + i] == 0)
			return (long)(i - off);
	return -1;
}

/* The offset after the token at off (a node's name or a property's value skipped), or 0
 * when the token is malformed. */
static UINT32 token_next(const struct fdt *f, UINT32 off)
{
	UINT32 token = token_at(f, off);
	long len;

	switch (token) {
	case FDT_BEGIN_NODE:
		len = string_len(f, f->struct_off, f->struct_size, off + 4);
		return len < 0 ? 0 : (off + 4 + (UINT32)len + 1 + 3) & ~3u;
	case FDT_PROP:
		if (off + 12 > f->struct_size)
			return 0;
		len = be32(f->blob + f->struct_off + off + 4);
		if ((UINT64)len > f->struct_size - off - 12)
			return 0;
		return (off + 12 + (UINT32)len + 3) & ~3u;
	case FDT_END_NODE:
	case FDT_NOP:
		return off + 4;
	default:
		return 0;
	}
}

bool fdt_get_prop(const struct fdt *f, long node, const char *name, const void **value, UINT32 *len)
{
	UINT32 off;

	if (node < 0 || token_at(f, (UINT32)node) != FDT_BEGIN_NODE)
		return false;
	off = token_next(f, (UINT32)node);
	/* A node's properties come before its children. */
	while (off) {
		UINT32 token = token_at(f, off);
		UINT32 next = token_next(f, off); /* checks the value's length */
		const UINT8 *p = f->blob + f->struct_off + off;
		if (!next)
			return false;
		if (token == FDT_PROP) {
			UINT32 nameoff = be32(p + 8);
			long n = nameoff < f->strings_size
				     ? string_len(f, f->strings_off, f->strings_size, nameoff)
				     : -1;
			if (n >= 0 && (size_t)n == str8_len(name) &&
			    mem_cmp(f->blob + f->strings_off + nameoff, name, (size_t)n) == 0) {
				*value = p + 12;
				*len = be32(p + 4);
				return true;
			}
		} else if (token != FDT_NOP) {
			return false;
		}
		off = next;
	}
	return false;
}

bool fdt_is_compatible(const struct fdt *f, long node, const char *compatible)
{
	const void *value;
	UINT32 len, at = 0;
	size_t want = str8_len(compatible);

	if (!fdt_get_prop(f, node, "compatible", &value, &len))
		return false;
	/* A list of NUL-terminated strings. */
	while (at < len) {
		const char *s = (const char *)value + at;
		UINT32 n = 0;
		while (at + n < len && s[n])
			n++;
		if (n == want && mem_cmp(s, compatible, n) == 0)
			return true;
		at += n + 1;
	}
	return false;
}

static bool name_matches(const struct fdt *f, UINT32 node, const char *name)
{
	const char *s = (const char *)f->blob + f->struct_off + node + 4;
	size_t n = 0;

	/* token_next checked the name's terminator: comparing stops there at the latest. */
	while (name[n] && s[n] == name[n])
		n++;
	return name[n] == 0 && (s[n] == 0 || s[n] == '@');
}

long fdt_find_node(const struct fdt *f, long after, const char *name, const char *compatible)
{
	UINT32 off = 0;

	if (after >= 0) {
		if (token_at(f, (UINT32)after) != FDT_BEGIN_NODE)
			return -1;
		off = token_next(f, (UINT32)after);
		if (!off)
			return -1;
	}
	for (;;) {
		UINT32 token = token_at(f, off);
		UINT32 next = token_next(f, off);
		if (token == FDT_END || !next)
			return -1;
		if (token == FDT_BEGIN_NODE &&
		    (name ? name_matches(f, off, name) : fdt_is_compatible(f, off, compatible)))
			return off;
		off = next;
	}
}

static UINT64 read_cells(const UINT8 *p, UINT32 cells)
{
	return cells == 2 ? (UINT64)be32(p) << 32 | be32(p + 4) : be32(p);
}

bool fdt_get_reg(const struct fdt *f, long node, UINT32 address_cells, UINT32 size_cells,
		 UINT32 idx, UINT64 *address, UINT64 *size)
{
	const void *value;
	UINT32 len, entry = (address_cells + size_cells) * 4;

	if (address_cells < 1 || address_cells > 2 || size_cells < 1 || size_cells > 2)
		return false;
	if (!fdt_get_prop(f, node, "reg", &value, &len) || len / entry <= idx)
		return false;
	*address = read_cells((const UINT8 *)value + idx * entry, address_cells);
	*size = read_cells((const UINT8 *)value + idx * entry + address_cells * 4, size_cells);
	return true;
}

bool fdt_check(const struct fdt *f)
{
	UINT32 off = 0, depth = 0;
	bool root_done = false;

	for (;;) {
		UINT32 token = token_at(f, off);
		UINT32 next;
		if (token == FDT_END)
			/* The last token, and the structure block cannot end before it. */
			return root_done && depth == 0 && f->struct_size - off >= 4;
		next = token_next(f, off);
		if (!next)
			return false;
		if (token == FDT_BEGIN_NODE) {
			if (root_done || ++depth > FDT_MAX_DEPTH)
				return false;
		} else if (token == FDT_END_NODE) {
			if (depth == 0)
				return false;
			root_done = --depth == 0;
		} else if (token == FDT_PROP) {
			UINT32 nameoff = be32(f->blob + f->struct_off + off + 8);
			if (depth == 0 || nameoff >= f->strings_size ||
			    string_len(f, f->strings_off, f->strings_size, nameoff) < 0)
				return false;
		}
		off = next;
	}
}

UINT32 fdt_props_end(const struct fdt *f, long node)
{
	UINT32 off;

	if (node < 0 || token_at(f, (UINT32)node) != FDT_BEGIN_NODE)
		return 0;
	off = token_next(f, (UINT32)node);
	while (off && (token_at(f, off) == FDT_PROP || token_at(f, off) == FDT_NOP))
		off = token_next(f, off);
	return off;
}

/* The offset after the end of the node at off (its subtree skipped), or 0. */
static UINT32 node_skip(const struct fdt *f, UINT32 off)
{
	UINT32 depth = 0;

	do {
		UINT32 token = token_at(f, off);
		if (token == FDT_BEGIN_NODE && ++depth > FDT_MAX_DEPTH)
			return 0;
		if (token == FDT_END_NODE)
			depth--;
		off = token_next(f, off);
	} while (off && depth);
	return off;
}

long fdt_next_child(const struct fdt *f, long parent, long prev)
{
	UINT32 off = prev < 0 ? fdt_props_end(f, parent) : node_skip(f, (UINT32)prev);

	while (off && token_at(f, off) == FDT_NOP)
		off = token_next(f, off);
	return off && token_at(f, off) == FDT_BEGIN_NODE ? (long)off : -1;
}

bool fdt_mem_rsv(const struct fdt *f, UINT32 idx, UINT64 *address, UINT64 *size)
{
	UINT64 at = (UINT64)f->rsv_off + (UINT64)idx * 16;
	const UINT8 *p;

	if (f->rsv_off < FDT_HEADER_SIZE || at + 16 > f->size)
		return false;
	p = f->blob + at;
	*address = read_cells(p, 2);
	*size = read_cells(p + 8, 2);
	return *address || *size;
}
