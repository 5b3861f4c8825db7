/* The MADT's processors (platform/qemu-x86_64/pure/madt.c): a table laid out as QEMU makes
 * it (-smp 4,maxcpus=6: two hot-pluggable entries not enabled, an I/O APIC, interrupt
 * overrides, a local APIC NMI), x2APIC entries, repeats, tables that lie about their
 * length, and the topology split of an APIC ID. */
#include <string.h>

#include "support/test.h"
#include "../../platform/qemu-x86_64/pure/madt.h"

struct builder {
	uint8_t t[512];
	size_t len;
};

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void start(struct builder *b)
{
	memset(b, 0, sizeof(*b));
	memcpy(b->t, "APIC", 4);
	b->t[8] = 1; /* revision */
	put32(b->t + 36, 0xfee00000);
	put32(b->t + 40, 1); /* PCAT_COMPAT */
	b->len = 44;
}

static void finish(struct builder *b)
{
	put32(b->t + 4, (uint32_t)b->len);
}

static void add(struct builder *b, const uint8_t *entry, size_t len)
{
	memcpy(b->t + b->len, entry, len);
	b->len += len;
}

static void local_apic(struct builder *b, uint8_t uid, uint8_t id, uint32_t flags)
{
	uint8_t e[8] = {0, 8, uid, id};

	put32(e + 4, flags);
	add(b, e, sizeof(e));
}

static void local_x2apic(struct builder *b, uint32_t id, uint32_t flags)
{
	uint8_t e[16] = {9, 16};

	put32(e + 4, id);
	put32(e + 8, flags);
	add(b, e, sizeof(e));
}

static void qemu_like(struct builder *b)
{
	static const uint8_t io_apic[12] = {1, 12, 0, 0, 0, 0, 0xc0, 0xfe, 0, 0, 0, 0};
	static const uint8_t override[10] = {2, 10, 0, 0, 2, 0, 0, 0, 0, 0};
	static const uint8_t nmi[6] = {4, 6, 0xff, 0, 0, 1};

	start(b);
	for (uint8_t i = 0; i < 6; i++)
		local_apic(b, i, i, i < 4 ? 1 : 0);
	add(b, io_apic, sizeof(io_apic));
	add(b, override, sizeof(override));
	add(b, nmi, sizeof(nmi));
	finish(b);
}

TEST(madt_lists_the_enabled_processors_as_qemu_makes_them)
{
	struct builder b;
	struct madt_cpu cpus[8];
	struct madt_result r;

	qemu_like(&b);
	ASSERT(madt_cpus(b.t, b.len, cpus, 8, &r));
	ASSERT_EQ(r.count, 4);
	EXPECT_EQ(r.lapic_address, 0xfee00000);
	for (uint32_t i = 0; i < 4; i++)
		EXPECT_EQ(cpus[i].apic_id, i);
}

TEST(madt_reads_x2apic_entries_and_skips_repeats)
{
	struct builder b;
	struct madt_cpu cpus[8];
	struct madt_result r;

	start(&b);
	local_apic(&b, 0, 0, 1);
	local_x2apic(&b, 300, 1);
	local_x2apic(&b, 0, 1);	  /* the same processor again */
	local_x2apic(&b, 301, 2); /* online capable, not enabled */
	finish(&b);
	ASSERT(madt_cpus(b.t, b.len, cpus, 8, &r));
	ASSERT_EQ(r.count, 2);
	EXPECT_EQ(cpus[0].apic_id, 0);
	EXPECT_EQ(cpus[1].apic_id, 300);
}

TEST(madt_counts_past_the_room_it_was_given)
{
	struct builder b;
	struct madt_cpu cpus[2] = {{99}, {99}};
	struct madt_result r;

	qemu_like(&b);
	ASSERT(madt_cpus(b.t, b.len, cpus, 1, &r));
	EXPECT_EQ(r.count, 4);
	EXPECT_EQ(cpus[0].apic_id, 0);
	EXPECT_EQ(cpus[1].apic_id, 99); /* untouched */
}

TEST(madt_refuses_tables_that_are_not_or_lie)
{
	struct builder b;
	struct madt_cpu cpus[8];
	struct madt_result r;

	qemu_like(&b);
	EXPECT(!madt_cpus(b.t, 43, cpus, 8, &r));	 /* shorter than the header */
	EXPECT(!madt_cpus(b.t, b.len - 1, cpus, 8, &r)); /* its length says more */
	b.t[0] = 'X';
	EXPECT(!madt_cpus(b.t, b.len, cpus, 8, &r));
	EXPECT_EQ(r.count, 0);

	start(&b);
	local_apic(&b, 0, 0, 1);
	b.t[b.len - 7] = 0; /* an entry of length 0 would loop for ever */
	finish(&b);
	EXPECT(!madt_cpus(b.t, b.len, cpus, 8, &r));

	start(&b);
	local_apic(&b, 0, 0, 1);
	b.t[b.len - 7] = 9; /* runs one byte past the end */
	finish(&b);
	EXPECT(!madt_cpus(b.t, b.len, cpus, 8, &r));

	start(&b);
	local_apic(&b, 0, 0, 1);
	local_apic(&b, 1, 1, 1);
	b.t[b.len - 7] = 9; /* the processors before a bad entry are not counted either */
	finish(&b);
	EXPECT(!madt_cpus(b.t, b.len, cpus, 8, &r));
	EXPECT_EQ(r.count, 0);

	start(&b);
	b.t[b.len] = 0; /* one byte of an entry: no room for its length */
	b.len++;
	finish(&b);
	EXPECT(!madt_cpus(b.t, b.len, cpus, 8, &r));

	start(&b);
	local_apic(&b, 0, 7, 1);
	b.t[b.len - 7] = 4; /* a local APIC entry too short to hold its flags: not a CPU */
	b.len -= 4;
	finish(&b);
	ASSERT(madt_cpus(b.t, b.len, cpus, 8, &r));
	EXPECT_EQ(r.count, 0);
}

TEST(madt_location_splits_the_apic_id)
{
	struct cpu_location l = madt_location(0xb, 1, 2); /* 1 011: package 1, core 1, thread 1 */

	EXPECT_EQ(l.package, 1);
	EXPECT_EQ(l.core, 1);
	EXPECT_EQ(l.thread, 1);
	l = madt_location(3, 0, 0); /* no topology: each processor its own package */
	EXPECT_EQ(l.package, 3);
	EXPECT_EQ(l.core, 0);
	EXPECT_EQ(l.thread, 0);
	l = madt_location(3, 0, 8); /* QEMU's -smp 4: four cores of one package */
	EXPECT_EQ(l.package, 0);
	EXPECT_EQ(l.core, 3);
	l = madt_location(0xffffffff, 16, 16);
	EXPECT_EQ(l.package, 0);
	EXPECT_EQ(l.core, 0xffff);
	EXPECT_EQ(l.thread, 0xffff);
}
