/* The flattened device tree editor (include/ember/lib/fdt_edit.h). The tree is kept packed
 * in the canonical order, so an edit of the structure block moves what follows it (the
 * rest of the structure and the strings) and nothing else; the header is rewritten after
 * each edit and the reader's view reopened on it. */
#include <ember/lib/fdt_edit.h>
#include <ember/lib/format.h>
#include <ember/lib/str.h>

#define FDT_MAGIC 0xd00dfeed
#define FDT_HEADER_SIZE 40
#define FDT_VERSION 17
#define FDT_LAST_COMP_VERSION 16
#define FDT_BEGIN_NODE 1
#define FDT_END_NODE 2
#define FDT_PROP 3
#define RSV_ENTRY_SIZE 16
#define MAX_NODE_NAME 64

static UINT32 be32(const UINT8 *p)
{
	return (UINT32)p[0] << 24 | (UINT32)p[1] << 16 | (UINT32)p[2] << 8 | p[3];
}

static void put32(UINT8 *p, UINT32 v)
{
	p[0] = (UINT8)(v >> 24);
	p[1] = (UINT8)(v >> 16);
	p[2] = (UINT8)(v >> 8);
	p[3] = (UINT8)v;
}

static UINT32 pad4(UINT32 n)
{
	return (n + 3) & ~3u;
}

static UINT32 used(const struct fdt_edit *e)
{
	return e->view.strings_off + e->view.strings_size;
}

UINT32 fdt_edit_used(const struct fdt_edit *e)
{
	return used(e);
}

/* Writes the block sizes and offsets into the header and reopens the view. */
static void commit(struct fdt_edit *e, UINT32 struct_size, UINT32 strings_off, UINT32 strings_size)
{
	put32(e->blob + 8, e->view.struct_off);
	put32(e->blob + 12, strings_off);
	put32(e->blob + 32, strings_size);
	put32(e->blob + 36, struct_size);
	fdt_open(&e->view, e->blob, e->capacity);
}

bool fdt_edit_copy(struct fdt_edit *e, const struct fdt *f, void *buffer, UINT32 capacity)
{
	UINT8 *b = buffer;
	UINT32 rsv_count = 0, rsv_size, struct_off, strings_off;
	UINT64 address, size;

	while (fdt_mem_rsv(f, rsv_count, &address, &size))
		rsv_count++;
	/* fdt_mem_rsv also stops where the block runs out: the terminator must be there. */
	if (f->rsv_off < FDT_HEADER_SIZE ||
	    (UINT64)f->rsv_off + (UINT64)(rsv_count + 1) * RSV_ENTRY_SIZE > f->size)
		return false;
	rsv_size = (rsv_count + 1) * RSV_ENTRY_SIZE;
	struct_off = FDT_HEADER_SIZE + rsv_size;
	if ((UINT64)struct_off + f->struct_size + f->strings_size > capacity)
		return false;
	strings_off = struct_off + f->struct_size;
	mem_set(b, 0, capacity);
	put32(b, FDT_MAGIC);
	put32(b + 4, capacity);
	put32(b + 16, FDT_HEADER_SIZE);
	put32(b + 20, FDT_VERSION);
	put32(b + 24, FDT_LAST_COMP_VERSION);
	mem_copy(b + 28, f->blob + 28, 4); /* boot_cpuid_phys */
	mem_copy(b + FDT_HEADER_SIZE, f->blob + f->rsv_off, rsv_size);
	mem_copy(b + struct_off, f->blob + f->struct_off, f->struct_size);
	mem_copy(b + strings_off, f->blob + f->strings_off, f->strings_size);
	e->blob = b;
	e->capacity = capacity;
	e->view.struct_off = struct_off;
	commit(e, f->struct_size, strings_off, f->strings_size);
	return true;
}

/* Opens n bytes at offset at of the structure block (or closes them: n negative), moving
 * what follows; false when the buffer is too small. */
static bool resize_at(struct fdt_edit *e, UINT32 at, long n)
{
	UINT32 abs = e->view.struct_off + at, end = used(e);

	if (n > 0 && (UINT64)n > e->capacity - end)
		return false;
	mem_copy(e->blob + abs + n, e->blob + abs, end - abs);
	if (n < 0)
		mem_set(e->blob + end + n, 0, (size_t)-n);
	commit(e, (UINT32)(e->view.struct_size + n), (UINT32)(e->view.strings_off + n),
	       e->view.strings_size);
	return true;
}

/* The offset of name in the strings block, appended when absent; -1 without room. */
static long string_offset(struct fdt_edit *e, const char *name)
{
	UINT32 n = (UINT32)str8_len(name) + 1;
	const UINT8 *strings = e->blob + e->view.strings_off;

	for (UINT32 i = 0; i + n <= e->view.strings_size; i++)
		if (mem_cmp(strings + i, name, n) == 0)
			return i;
	if (n > e->capacity - used(e))
		return -1;
	mem_copy(e->blob + used(e), name, n);
	commit(e, e->view.struct_size, e->view.strings_off, e->view.strings_size + n);
	return (long)(e->view.strings_size - n);
}

bool fdt_edit_set_prop(struct fdt_edit *e, long node, const char *name, const void *value,
		       UINT32 len)
{
	const void *old;
	UINT32 old_len, at;
	long nameoff;
	UINT8 *p;

	if (fdt_get_prop(&e->view, node, name, &old, &old_len)) {
		at = (UINT32)((const UINT8 *)old - e->blob - e->view.struct_off) - 12;
		if (!resize_at(e, at + 12 + pad4(old_len), (long)pad4(len) - (long)pad4(old_len)))
			return false;
	} else {
		nameoff = string_offset(e, name);
		at = fdt_props_end(&e->view, node);
		if (nameoff < 0 || !at || !resize_at(e, at, 12 + (long)pad4(len)))
			return false;
		put32(e->blob + e->view.struct_off + at, FDT_PROP);
		put32(e->blob + e->view.struct_off + at + 8, (UINT32)nameoff);
	}
	p = e->blob + e->view.struct_off + at;
	put32(p + 4, len);
	mem_copy(p + 12, value, len);
	mem_set(p + 12 + len, 0, pad4(len) - len);
	return true;
}

long fdt_edit_add_node(struct fdt_edit *e, long parent, const char *name)
{
	UINT32 n = (UINT32)str8_len(name) + 1, at = fdt_props_end(&e->view, parent);
	UINT8 *p;

	if (!at || !resize_at(e, at, 8 + (long)pad4(n)))
		return -1;
	p = e->blob + e->view.struct_off + at;
	put32(p, FDT_BEGIN_NODE);
	mem_copy(p + 4, name, n);
	mem_set(p + 4 + n, 0, pad4(n) - n);
	put32(p + 4 + pad4(n), FDT_END_NODE);
	return at;
}

void fdt_edit_set_total(struct fdt_edit *e, UINT32 total)
{
	put32(e->blob + 4, total < used(e) ? used(e) : total);
}

static UINT32 cells(const struct fdt *f, long node, const char *name, UINT32 otherwise)
{
	const void *value;
	UINT32 len;

	if (!fdt_get_prop(f, node, name, &value, &len) || len != 4)
		return otherwise;
	return be32(value);
}

/* Whether the node (in a checked tree: its name is terminated) is called name, with or
 * without a unit address. */
static bool node_named(const struct fdt *f, long node, const char *name)
{
	const char *s = (const char *)f->blob + f->struct_off + node + 4;
	size_t n = str8_len(name);

	return str8_ncmp(s, name, n) == 0 && (s[n] == 0 || s[n] == '@');
}

static long root_child(const struct fdt *f, const char *name)
{
	long root = fdt_find_node(f, -1, "", NULL), child = -1;

	while ((child = fdt_next_child(f, root, child)) >= 0)
		if (node_named(f, child, name))
			return child;
	return -1;
}

/* Writes value as cells big-endian 32-bit cells; false when it does not fit. */
static bool put_cells(UINT8 *p, UINT32 count, UINT64 value)
{
	if (count == 1 && value >> 32)
		return false;
	if (count == 2) {
		put32(p, (UINT32)(value >> 32));
		p += 4;
	}
	put32(p, (UINT32)value);
	return true;
}

bool fdt_edit_set_memory(struct fdt_edit *e, UINT64 base, UINT64 size)
{
	long root = fdt_find_node(&e->view, -1, "", NULL), memory;
	UINT32 ac = cells(&e->view, root, "#address-cells", 2);
	UINT32 sc = cells(&e->view, root, "#size-cells", 1);
	UINT8 reg[16];
	char name[MAX_NODE_NAME];

	if (root < 0 || ac < 1 || ac > 2 || sc < 1 || sc > 2 || !put_cells(reg, ac, base) ||
	    !put_cells(reg + ac * 4, sc, size))
		return false;
	memory = root_child(&e->view, "memory");
	if (memory < 0) {
		format_sn(name, sizeof(name), "memory@%llx", (unsigned long long)base);
		memory = fdt_edit_add_node(e, root, name);
		if (memory < 0 || !fdt_edit_set_prop(e, memory, "device_type", "memory", 7))
			return false;
	}
	return fdt_edit_set_prop(e, memory, "reg", reg, (ac + sc) * 4);
}

/* Whether the node is enabled: no status, or "okay" (or the older "ok"). */
static bool node_enabled(const struct fdt *f, long node)
{
	const void *value;
	UINT32 len;

	if (!fdt_get_prop(f, node, "status", &value, &len))
		return true;
	return (len == 5 && mem_cmp(value, "okay", 5) == 0) ||
	       (len == 3 && mem_cmp(value, "ok", 3) == 0);
}

bool fdt_reservations(const struct fdt *f, fdt_reservation_fn fn, void *ctx)
{
	UINT64 base, size;
	long parent, child = -1;
	UINT32 ac, sc;
	const void *value;
	UINT32 len;

	for (UINT32 i = 0; fdt_mem_rsv(f, i, &base, &size); i++)
		if (!fn(ctx, base, size, false))
			return false;
	parent = root_child(f, "reserved-memory");
	ac = cells(f, parent, "#address-cells", 2);
	sc = cells(f, parent, "#size-cells", 1);
	while (parent >= 0 && (child = fdt_next_child(f, parent, child)) >= 0) {
		bool no_map = fdt_get_prop(f, child, "no-map", &value, &len);
		/* A node without reg (a size to allocate) is the OS's business. */
		for (UINT32 i = 0;
		     node_enabled(f, child) && fdt_get_reg(f, child, ac, sc, i, &base, &size); i++)
			if (!fn(ctx, base, size, no_map))
				return false;
	}
	return true;
}
