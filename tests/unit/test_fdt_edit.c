/* The flattened device tree editor (lib/fdt_edit.c): a tree copied into a bigger buffer
 * reads the same, properties replaced (longer, shorter) and added, nodes added, the memory
 * fix-up on a tree with a memory node, without one and with cells too small, buffers too
 * small refused, and the reservations of the block and of /reserved-memory listed. */
#include <string.h>

#include "support/fdt_builder.h"
#include "support/test.h"
#include <ember/lib/fdt_edit.h>

static struct fdt_builder builder;
static UINT8 buffer[4096];

/* A root with the given cells, a chosen node and (with_memory) a memory node of 128 MiB. */
static size_t small_tree(UINT32 address_cells, UINT32 size_cells, bool with_memory)
{
	static const UINT8 reg[] = {0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0, 0x08, 0, 0, 0};
	struct fdt_builder *b = &builder;

	memset(b, 0, sizeof(*b));
	fdtb_begin(b, "");
	fdtb_prop32(b, "#address-cells", address_cells);
	fdtb_prop32(b, "#size-cells", size_cells);
	fdtb_begin(b, "chosen");
	fdtb_prop(b, "bootargs", "quiet", 6);
	fdtb_end(b);
	if (with_memory) {
		fdtb_begin(b, "memory@40000000");
		fdtb_prop(b, "device_type", "memory", 7);
		fdtb_prop(b, "reg", reg, sizeof(reg));
		fdtb_end(b);
	}
	fdtb_end(b);
	fdtb_token(b, 9);
	return fdtb_finish(b);
}

static bool open_copy(struct fdt_edit *e, size_t size, UINT32 capacity)
{
	struct fdt f;

	return fdt_open(&f, builder.blob, size) && fdt_check(&f) &&
	       fdt_edit_copy(e, &f, buffer, capacity);
}

/* The memory node's reg as 2+2 cells. */
static void memory_reg(const struct fdt *f, UINT64 *base, UINT64 *size)
{
	long node = fdt_find_node(f, -1, "memory", NULL);

	*base = *size = 0;
	fdt_get_reg(f, node, 2, 2, 0, base, size);
}

TEST(fdt_edit_copies_and_sets_properties)
{
	size_t size = small_tree(2, 2, true);
	struct fdt_edit e;
	struct fdt check;
	const void *value;
	UINT32 len;
	long chosen;

	ASSERT(open_copy(&e, size, sizeof(buffer)));
	EXPECT_EQ(fdt_edit_used(&e), (UINT32)size);
	chosen = fdt_find_node(&e.view, -1, "chosen", NULL);
	ASSERT(fdt_edit_set_prop(&e, chosen, "bootargs", "console=ttyAMA0 quiet", 22));
	ASSERT(fdt_edit_set_prop(&e, chosen, "stdout-path", "/pl011", 7));
	chosen = fdt_find_node(&e.view, -1, "chosen", NULL);
	ASSERT(fdt_get_prop(&e.view, chosen, "bootargs", &value, &len));
	EXPECT(len == 22 && memcmp(value, "console=ttyAMA0 quiet", 22) == 0);
	ASSERT(fdt_edit_set_prop(&e, chosen, "bootargs", "", 1)); /* shorter */
	ASSERT(fdt_get_prop(&e.view, chosen, "bootargs", &value, &len));
	EXPECT_EQ(len, 1);
	ASSERT(fdt_get_prop(&e.view, chosen, "stdout-path", &value, &len));
	EXPECT(len == 7 && memcmp(value, "/pl011", 7) == 0);
	/* The result is a whole tree, the memory node still after chosen. */
	fdt_edit_set_total(&e, 1000);
	ASSERT(fdt_open(&check, buffer, 1000));
	EXPECT(fdt_check(&check));
	EXPECT(fdt_find_node(&check, -1, "memory", NULL) > chosen);
}

TEST(fdt_edit_memory_fixup_replaces_or_adds_the_node)
{
	size_t size = small_tree(2, 2, true);
	struct fdt_edit e;
	UINT64 base, length;
	const void *value;
	UINT32 len;
	long memory;

	ASSERT(open_copy(&e, size, sizeof(buffer)));
	ASSERT(fdt_edit_set_memory(&e, 0x40000000, 0x40000000));
	memory_reg(&e.view, &base, &length);
	EXPECT_EQ(base, 0x40000000ULL);
	EXPECT_EQ(length, 0x40000000ULL);
	EXPECT(fdt_check(&e.view));

	size = small_tree(2, 2, false);
	ASSERT(open_copy(&e, size, sizeof(buffer)));
	ASSERT(fdt_edit_set_memory(&e, 0x40000000, 0x100000000ULL));
	EXPECT(fdt_check(&e.view));
	memory = fdt_find_node(&e.view, -1, "memory@40000000", NULL);
	ASSERT(memory > 0);
	ASSERT(fdt_get_prop(&e.view, memory, "device_type", &value, &len));
	EXPECT(len == 7 && memcmp(value, "memory", 7) == 0);
	memory_reg(&e.view, &base, &length);
	EXPECT_EQ(length, 0x100000000ULL);
	/* The chosen node is still there, and its property. */
	EXPECT(fdt_get_prop(&e.view, fdt_find_node(&e.view, -1, "chosen", NULL), "bootargs", &value,
			    &len));
}

TEST(fdt_edit_memory_fixup_refuses_cells_too_small)
{
	size_t size = small_tree(1, 1, true);
	struct fdt_edit e;

	ASSERT(open_copy(&e, size, sizeof(buffer)));
	EXPECT(!fdt_edit_set_memory(&e, 0x40000000, 0x100000000ULL)); /* 4 GiB in one cell */
	EXPECT(fdt_edit_set_memory(&e, 0x40000000, 0x40000000));
	EXPECT(fdt_check(&e.view));
}

TEST(fdt_edit_refuses_edits_past_the_buffer)
{
	size_t size = small_tree(2, 2, false);
	struct fdt_edit e;
	UINT8 big[64] = {0};

	EXPECT(!open_copy(&e, size, (UINT32)size - 1));
	ASSERT(open_copy(&e, size, (UINT32)size + 16));
	EXPECT(!fdt_edit_set_prop(&e, 0, "bootargs", big, sizeof(big)));
	EXPECT(!fdt_edit_set_memory(&e, 0x40000000, 0x40000000));
	/* Whatever failed, the tree is whole. */
	EXPECT(fdt_check(&e.view));
	EXPECT(fdt_edit_used(&e) <= (UINT32)size + 16);
}

struct seen {
	UINT64 base[8], size[8];
	bool no_map[8];
	int count;
};

static bool collect(void *ctx, UINT64 base, UINT64 size, bool no_map)
{
	struct seen *s = ctx;

	if (s->count == 8)
		return false;
	s->base[s->count] = base;
	s->size[s->count] = size;
	s->no_map[s->count++] = no_map;
	return true;
}

TEST(fdt_reservations_lists_the_block_and_reserved_memory)
{
	static const UINT8 reg1[] = {0, 0, 0, 0, 0x50, 0, 0, 0, 0, 0, 0x10, 0};
	static const UINT8 reg2[] = {0, 0, 0, 0, 0x60, 0, 0, 0, 0, 0, 0x20, 0};
	struct fdt_builder *b = &builder;
	struct seen seen = {0};
	struct fdt f;
	size_t size;

	memset(b, 0, sizeof(*b));
	b->rsv[0][0] = 0x48000000;
	b->rsv[0][1] = 0x1000;
	b->rsv_count = 1;
	fdtb_begin(b, "");
	fdtb_begin(b, "reserved-memory");
	fdtb_prop32(b, "#address-cells", 2);
	fdtb_prop32(b, "#size-cells", 1);
	fdtb_begin(b, "tee@50000000");
	fdtb_prop(b, "reg", reg1, sizeof(reg1));
	fdtb_prop(b, "no-map", "", 0);
	fdtb_end(b);
	fdtb_begin(b, "off@60000000");
	fdtb_prop(b, "reg", reg2, sizeof(reg2));
	fdtb_prop(b, "status", "disabled", 9);
	fdtb_end(b);
	fdtb_begin(b, "pool");
	fdtb_prop32(b, "size", 0x100000); /* dynamic: the OS's to place */
	fdtb_end(b);
	fdtb_begin(b, "fb@60000000");
	fdtb_prop(b, "reg", reg2, sizeof(reg2));
	fdtb_end(b);
	fdtb_end(b);
	fdtb_end(b);
	fdtb_token(b, 9);
	size = fdtb_finish(b);
	ASSERT(fdt_open(&f, b->blob, size) && fdt_check(&f));
	ASSERT(fdt_reservations(&f, collect, &seen));
	ASSERT_EQ(seen.count, 3);
	EXPECT(seen.base[0] == 0x48000000 && seen.size[0] == 0x1000 && !seen.no_map[0]);
	EXPECT(seen.base[1] == 0x50000000 && seen.size[1] == 0x1000 && seen.no_map[1]);
	EXPECT(seen.base[2] == 0x60000000 && seen.size[2] == 0x2000 && !seen.no_map[2]);
}
