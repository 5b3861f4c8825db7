/* platform/common/qemu_loader.c and platform/common/acpi_tables.c: QEMU's
 * table-loader script and the ACPI 2.0 entry points built from its RSDT. Blobs live in host memory
 * at fake guest addresses. */
#include <stdlib.h>
#include <string.h>
#include "support/test.h"
#include "../../platform/common/acpi_tables.h"
#include "../../platform/common/qemu_loader.h"

#define MAX_SCRIPT 16

struct fake_fw_cfg {
	const char *names[4];
	uint8_t *contents[4];
	size_t sizes[4];
	unsigned allocated;
	char written_name[56];
	uint32_t written_offset;
	uint64_t written_value;
};

static EFI_STATUS fake_allocate(void *ctx, const char *name, UINT32 align, UINT8 zone,
				struct qemu_loader_blob *blob)
{
	struct fake_fw_cfg *fw = ctx;
	for (int i = 0; i < 4 && fw->names[i]; i++)
		if (!strcmp(fw->names[i], name)) {
			blob->data = malloc(fw->sizes[i]);
			memcpy(blob->data, fw->contents[i], fw->sizes[i]);
			blob->size = fw->sizes[i];
			blob->address = 0x10000000ULL + 0x100000ULL * fw->allocated++;
			return EFI_SUCCESS;
		}
	return EFI_NOT_FOUND;
}

static EFI_STATUS fake_write_pointer(void *ctx, const char *name, UINT32 offset, UINT8 size,
				     UINT64 value)
{
	struct fake_fw_cfg *fw = ctx;
	strcpy(fw->written_name, name);
	fw->written_offset = offset;
	fw->written_value = value;
	return EFI_SUCCESS;
}

static uint8_t script[MAX_SCRIPT][128];
static int script_len;

static uint8_t *command(uint32_t type)
{
	uint8_t *e = script[script_len++];
	memset(e, 0, 128);
	memcpy(e, &type, 4);
	return e + 4;
}

static void allocate(const char *file, uint32_t align)
{
	uint8_t *b = command(QEMU_LOADER_ALLOCATE);
	strcpy((char *)b, file);
	memcpy(b + 56, &align, 4);
	b[60] = QEMU_LOADER_ZONE_HIGH;
}

static void add_pointer(const char *dst, const char *src, uint32_t offset, uint8_t size)
{
	uint8_t *b = command(QEMU_LOADER_ADD_POINTER);
	strcpy((char *)b, dst);
	strcpy((char *)b + 56, src);
	memcpy(b + 112, &offset, 4);
	b[116] = size;
}

static void add_checksum(const char *file, uint32_t result, uint32_t start, uint32_t length)
{
	uint8_t *b = command(QEMU_LOADER_ADD_CHECKSUM);
	strcpy((char *)b, file);
	memcpy(b + 56, &result, 4);
	memcpy(b + 60, &start, 4);
	memcpy(b + 64, &length, 4);
}

/* tables: FADT at 0 (pointing at the DSDT), DSDT at 116, RSDT at 156 listing FADT and a
 * bogus entry; rsdp points at the RSDT. */
static uint8_t tables[200], rsdp[20];

static void header(uint8_t *t, const char *sig, uint32_t length)
{
	memcpy(t, sig, 4);
	memcpy(t + 4, &length, 4);
	t[8] = 1;
}

static void build(struct fake_fw_cfg *fw)
{
	uint32_t v;

	memset(tables, 0, sizeof(tables));
	memset(rsdp, 0, sizeof(rsdp));
	header(tables, "FACP", 116);
	v = 116;
	memcpy(tables + 40, &v, 4); /* DSDT: an offset into tables, patched by the loader */
	header(tables + 116, "DSDT", 40);
	header(tables + 156, "RSDT", 44);
	v = 0;
	memcpy(tables + 156 + 36, &v, 4);
	v = 0x7777;
	memcpy(tables + 156 + 40, &v, 4); /* a pointer the loader never fixes: invalid */
	memcpy(rsdp, "RSD PTR ", 8);
	v = 156;
	memcpy(rsdp + 16, &v, 4);
	*fw = (struct fake_fw_cfg){
	    {"etc/acpi/rsdp", "etc/acpi/tables"}, {rsdp, tables}, {sizeof(rsdp), sizeof(tables)}};
	script_len = 0;
	allocate("etc/acpi/rsdp", 16);
	allocate("etc/acpi/tables", 64);
	add_pointer("etc/acpi/tables", "etc/acpi/tables", 40, 4);
	add_checksum("etc/acpi/tables", 9, 0, 116);
	add_checksum("etc/acpi/tables", 116 + 9, 116, 40);
	add_pointer("etc/acpi/tables", "etc/acpi/tables", 156 + 36, 4);
	add_checksum("etc/acpi/tables", 156 + 9, 156, 44);
	add_pointer("etc/acpi/rsdp", "etc/acpi/tables", 16, 4);
	add_checksum("etc/acpi/rsdp", 8, 0, 20);
}

static void release(struct qemu_loader *l)
{
	for (UINTN i = 0; i < l->blob_count; i++)
		free(l->blobs[i].data);
}

TEST(qemu_loader_links_and_checksums)
{
	static struct qemu_loader l;
	struct fake_fw_cfg fw;
	struct qemu_loader_ops ops = {fake_allocate, fake_write_pointer, &fw};
	EFI_ACPI_DESCRIPTION_HEADER rsdt, h;
	UINT64 found[8], rsdt_address;
	uint32_t dsdt;

	build(&fw);
	ASSERT_STATUS(qemu_loader_run(&l, &ops, script, script_len * 128), EFI_SUCCESS);
	ASSERT_EQ(l.blob_count, 2);
	struct qemu_loader_blob *t = qemu_loader_blob(&l, "etc/acpi/tables");
	ASSERT(t != NULL);
	memcpy(&dsdt, t->data + 40, 4);
	EXPECT_EQ(dsdt, t->address + 116);
	EXPECT(acpi_table_check(&l, t->address, &h));
	EXPECT(acpi_table_check(&l, dsdt, &h) && !memcmp(h.Signature, "DSDT", 4));
	struct qemu_loader_blob *r = qemu_loader_blob(&l, "etc/acpi/rsdp");
	/* The RSDT's second entry is garbage, so only the FADT is listed. */
	EXPECT_EQ(acpi_rsdt_tables(&l, r->data, r->size, found, 8, &rsdt_address, &rsdt), 1);
	EXPECT_EQ(found[0], t->address);
	EXPECT_EQ(rsdt_address, t->address + 156);

	uint8_t xsdt[ACPI_XSDT_SIZE(1)];
	EFI_ACPI_ROOT_SYSTEM_DESCRIPTION_POINTER out;
	acpi_build_xsdt(xsdt, &rsdt, found, 1);
	EXPECT(!memcmp(xsdt, "XSDT", 4));
	EXPECT_EQ(acpi_checksum(xsdt, sizeof(xsdt)), 0);
	acpi_build_rsdp(&out, rsdt.OemId, (UINT32)rsdt_address, 0x12345678);
	EXPECT_EQ(out.Revision, 2);
	EXPECT_EQ(acpi_checksum(&out, 20), 0);
	EXPECT_EQ(acpi_checksum(&out, 36), 0);
	EXPECT_EQ(out.XsdtAddress, 0x12345678);
	release(&l);
}

/* Runs the script with one command's bytes changed; expects refusal. */
static void expect_refused(int index, int offset, const void *bytes, size_t n)
{
	static struct qemu_loader l;
	struct fake_fw_cfg fw;
	struct qemu_loader_ops ops = {fake_allocate, fake_write_pointer, &fw};

	build(&fw);
	memcpy(script[index] + 4 + offset, bytes, n);
	EXPECT(EFI_ERROR(qemu_loader_run(&l, &ops, script, script_len * 128)));
	EXPECT(l.error != NULL);
	release(&l);
}

TEST(qemu_loader_refuses_bad_commands)
{
	uint32_t big = 200, huge = 0xffffffff, three = 3;
	uint8_t size3 = 3, full_name[56];

	memset(full_name, 'a', sizeof(full_name)); /* no terminating NUL */
	expect_refused(2, 112, &big, 4);	   /* pointer past the end of the file */
	expect_refused(2, 112, &huge, 4);	   /* offset overflow */
	expect_refused(2, 116, &size3, 1);	   /* pointer size 3 */
	expect_refused(3, 60, &big, 4);		   /* checksum range past the end */
	expect_refused(3, 56, &huge, 4);	   /* checksum result outside */
	expect_refused(1, 56, &three, 4);	   /* alignment not a power of two */
	expect_refused(1, 0, "etc/acpi/rsdp", 14); /* the same file twice */
	expect_refused(1, 0, "etc/nothing", 12);   /* fw_cfg has no such file */
	expect_refused(2, 56, "etc/unknown", 12);  /* pointer to a file not allocated */
	expect_refused(0, 0, full_name, sizeof(full_name));
}

TEST(qemu_loader_pointer_must_fit_its_size)
{
	static struct qemu_loader l;
	struct fake_fw_cfg fw;
	struct qemu_loader_ops ops = {fake_allocate, fake_write_pointer, &fw};
	uint8_t one = 1;

	/* The tables blob is at 0x10100000: a 1-byte pointer cannot hold that. */
	build(&fw);
	memcpy(script[2] + 4 + 116, &one, 1);
	EXPECT_STATUS(qemu_loader_run(&l, &ops, script, script_len * 128), EFI_INVALID_PARAMETER);
	release(&l);
}

TEST(qemu_loader_write_pointer_and_unknown_commands)
{
	static struct qemu_loader l;
	struct fake_fw_cfg fw;
	struct qemu_loader_ops ops = {fake_allocate, fake_write_pointer, &fw};
	uint32_t src_off = 8;

	build(&fw);
	uint8_t *b = command(QEMU_LOADER_WRITE_POINTER);
	strcpy((char *)b, "etc/vmgenid_addr");
	strcpy((char *)b + 56, "etc/acpi/tables");
	memcpy(b + 116, &src_off, 4);
	b[120] = 8;
	command(0x99); /* a command from a newer QEMU: skipped */
	EXPECT_STATUS(qemu_loader_run(&l, &ops, script, script_len * 128 + 100), EFI_SUCCESS);
	EXPECT(!strcmp(fw.written_name, "etc/vmgenid_addr"));
	EXPECT_EQ(fw.written_value, qemu_loader_blob(&l, "etc/acpi/tables")->address + 8);
	EXPECT(qemu_loader_at(&l, fw.written_value, 192) != NULL);
	EXPECT(qemu_loader_at(&l, fw.written_value, 193) == NULL);
	release(&l);
}

/* QEMU's Arm layout: a revision-2 RSDP (36 bytes) pointing at an XSDT, no RSDT. tables: FADT
 * at 0, DSDT at 116, XSDT at 156 listing the FADT and a bogus entry. */
static uint8_t arm_tables[220], arm_rsdp[36];

static void build_arm(struct fake_fw_cfg *fw, uint8_t revision)
{
	uint32_t v;
	uint64_t q;

	memset(arm_tables, 0, sizeof(arm_tables));
	memset(arm_rsdp, 0, sizeof(arm_rsdp));
	header(arm_tables, "FACP", 116);
	v = 116;
	memcpy(arm_tables + 40, &v, 4);
	header(arm_tables + 116, "DSDT", 40);
	header(arm_tables + 156, "XSDT", 52);
	q = 0x7777;
	memcpy(arm_tables + 156 + 44, &q, 8); /* never fixed by the loader: invalid */
	memcpy(arm_rsdp, "RSD PTR ", 8);
	arm_rsdp[15] = revision;
	v = sizeof(arm_rsdp);
	memcpy(arm_rsdp + 20, &v, 4);
	q = 156;
	memcpy(arm_rsdp + 24, &q, 8);
	*fw = (struct fake_fw_cfg){{"etc/acpi/rsdp", "etc/acpi/tables"},
				   {arm_rsdp, arm_tables},
				   {sizeof(arm_rsdp), sizeof(arm_tables)}};
	script_len = 0;
	allocate("etc/acpi/rsdp", 16);
	allocate("etc/acpi/tables", 64);
	add_pointer("etc/acpi/tables", "etc/acpi/tables", 40, 4);
	add_checksum("etc/acpi/tables", 9, 0, 116);
	add_checksum("etc/acpi/tables", 116 + 9, 116, 40);
	add_pointer("etc/acpi/tables", "etc/acpi/tables", 156 + 36, 8);
	add_checksum("etc/acpi/tables", 156 + 9, 156, 52);
	add_pointer("etc/acpi/rsdp", "etc/acpi/tables", 24, 8);
	add_checksum("etc/acpi/rsdp", 8, 0, 20);
	add_checksum("etc/acpi/rsdp", 32, 0, 36);
}

/* The tables acpi_xsdt_tables finds after the script ran on the Arm layout, with byte at
 * offset of the RSDP changed to value first (offset < 0: unchanged; resum: the extended
 * checksum made right again). */
static UINTN arm_tables_found(uint8_t revision, int offset, uint8_t value, bool resum,
			      UINT64 *found)
{
	static struct qemu_loader l;
	struct fake_fw_cfg fw;
	struct qemu_loader_ops ops = {fake_allocate, fake_write_pointer, &fw};
	EFI_ACPI_DESCRIPTION_HEADER xsdt;
	UINTN count;

	build_arm(&fw, revision);
	memset(&l, 0, sizeof(l));
	ASSERT_STATUS(qemu_loader_run(&l, &ops, script, (UINTN)script_len * 128), EFI_SUCCESS);
	struct qemu_loader_blob *r = qemu_loader_blob(&l, "etc/acpi/rsdp");
	if (offset >= 0)
		r->data[offset] = value;
	if (resum) {
		r->data[32] = 0;
		r->data[32] = acpi_checksum(r->data, 36);
	}
	count = acpi_xsdt_tables(&l, r->data, r->size, found, 8, &xsdt);
	if (count != (UINTN)-1)
		EXPECT(!memcmp(xsdt.Signature, "XSDT", 4));
	release(&l);
	return count;
}

TEST(acpi_xsdt_tables_of_arm_layout)
{
	UINT64 found[8];

	/* The XSDT's second entry is garbage: only the FADT (the second blob's start). */
	EXPECT_EQ(arm_tables_found(2, -1, 0, false, found), 1);
	EXPECT_EQ(found[0], 0x10100000ULL);
	/* A revision-0 RSDP has no XSDT; a broken extended checksum or a Length beyond the
	 * blob is refused. */
	EXPECT_EQ(arm_tables_found(0, -1, 0, false, found), (UINTN)-1);
	EXPECT_EQ(arm_tables_found(2, 33, 0x55, false, found), (UINTN)-1);
	EXPECT_EQ(arm_tables_found(2, 20, 200, true, found), (UINTN)-1);
	/* The XSDT's address pointing at another table (the FADT). */
	EXPECT_EQ(arm_tables_found(2, 24, 0x00, true, found), (UINTN)-1);
}
