/* The debug trail (include/ember/core/log.h) of parsers and of the boot manager that
 * ember-run cannot reach: each failure leaves one debug line, under its file's prefix,
 * naming the step that failed; at the default level (warnings) none of them is logged.
 * tests/integration/test_debug_trail.py does the same through ember-run --debug. */
#include <string.h>

#include "bds_fixture.h"
#include "support/test.h"
#include "support/test_platform.h"
#include "../../platform/common/acpi_tables.h"
#include "../../platform/common/qemu_loader.h"
#include <ember/core/bds.h>
#include <ember/core/core.h>
#include <ember/core/devpath.h>

static bool logged(const char *line)
{
	return strstr(test_log_text(), line) != NULL;
}

/* ---- QEMU's table-loader script and ACPI entry points ---- */

static EFI_STATUS no_allocate(void *ctx, const char *name, UINT32 align, UINT8 zone,
			      struct qemu_loader_blob *blob)
{
	return EFI_NOT_FOUND;
}

static EFI_STATUS no_write(void *ctx, const char *name, UINT32 offset, UINT8 size, UINT64 value)
{
	return EFI_DEVICE_ERROR;
}

/* Two entries: padding, then an ALLOCATE of file in zone. */
static void allocate_script(UINT8 script[2][QEMU_LOADER_ENTRY_SIZE], const char *file, UINT8 zone)
{
	UINT32 command = QEMU_LOADER_ALLOCATE, align = 16;

	memset(script, 0, 2 * QEMU_LOADER_ENTRY_SIZE);
	memcpy(script[1], &command, 4);
	strcpy((char *)script[1] + 4, file);
	memcpy(script[1] + 4 + QEMU_LOADER_FNAME_SIZE, &align, 4);
	script[1][4 + QEMU_LOADER_FNAME_SIZE + 4] = zone;
}

static EFI_STATUS run_script(const char *file, UINT8 zone)
{
	static struct qemu_loader loader;
	static UINT8 script[2][QEMU_LOADER_ENTRY_SIZE];
	const struct qemu_loader_ops ops = {no_allocate, no_write, NULL};

	allocate_script(script, file, zone);
	return qemu_loader_run(&loader, &ops, script, sizeof(script));
}

TEST(trail_table_loader_names_the_command)
{
	test_log_capture(LOG_LEVEL_DEBUG);
	EXPECT_STATUS(run_script("etc/acpi/tables", 7), EFI_INVALID_PARAMETER);
	EXPECT(logged("table-loader: command 1 refused: ALLOCATE: unknown zone: "
		      "EFI_INVALID_PARAMETER\n"));
	EXPECT_STATUS(run_script("etc/acpi/tables", QEMU_LOADER_ZONE_HIGH), EFI_NOT_FOUND);
	EXPECT(logged("table-loader: ALLOCATE etc/acpi/tables: EFI_NOT_FOUND\n"));
	EXPECT(logged("table-loader: command 1 refused: ALLOCATE: cannot load the file: "
		      "EFI_NOT_FOUND\n"));
	test_log_capture(LOG_LEVEL_WARN);
	EXPECT_STATUS(run_script("etc/acpi/tables", 7), EFI_INVALID_PARAMETER);
	EXPECT(!strcmp(test_log_text(), ""));
	test_log_stop();
}

/* The tables QEMU's RSDP leads to, when no file was loaded. */
static UINTN rsdt_tables(const EFI_ACPI_ROOT_SYSTEM_DESCRIPTION_POINTER *rsdp)
{
	static const struct qemu_loader loader;
	EFI_ACPI_DESCRIPTION_HEADER rsdt;
	UINT64 tables[4], rsdt_address;

	return acpi_rsdt_tables(&loader, rsdp, EFI_ACPI_RSDP_V1_SIZE, tables, 4, &rsdt_address,
				&rsdt);
}

TEST(trail_acpi_rsdp)
{
	EFI_ACPI_ROOT_SYSTEM_DESCRIPTION_POINTER rsdp = {0};

	test_log_capture(LOG_LEVEL_DEBUG);
	memcpy(rsdp.Signature, "RSD PTR!", 8);
	EXPECT_EQ(rsdt_tables(&rsdp), (UINTN)-1);
	EXPECT(logged("acpi: RSDP: bad signature\n"));
	memcpy(rsdp.Signature, EFI_ACPI_RSDP_SIGNATURE, 8);
	EXPECT_EQ(rsdt_tables(&rsdp), (UINTN)-1);
	EXPECT(logged("acpi: RSDP: bad checksum\n"));
	rsdp.RsdtAddress = 0x1234;
	rsdp.Checksum = acpi_checksum(&rsdp, EFI_ACPI_RSDP_V1_SIZE);
	EXPECT_EQ(rsdt_tables(&rsdp), (UINTN)-1);
	EXPECT(logged("acpi: table at 1234: its header is in no loaded file\n"));
	test_log_stop();
}

/* ---- QEMU's bootorder paths ---- */

static void ofw(const char *text)
{
	pool_free(dp_from_ofw(text, text + strlen(text)));
}

TEST(trail_ofw_paths)
{
	test_log_capture(LOG_LEVEL_DEBUG);
	ofw("/rom@genroms/linuxboot_dma.bin");
	EXPECT(
	    logged("ofw-path: \"/rom@genroms/linuxboot_dma.bin\": not under a PCI host bridge\n"));
	ofw("/pci@i0cf8/ethernet");
	EXPECT(logged("ofw-path: \"ethernet\": no unit address\n"));
	EXPECT(logged("ofw-path: \"/pci@i0cf8/ethernet\": names no PCI device\n"));
	ofw("/pci@i0cf8/isa@1f/fdc@3f0");
	EXPECT(logged("ofw-path: \"fdc@3f0\": no PCI device and function\n"));
	test_log_stop();
}

/* ---- Device-path text ---- */

static void from_text(const CHAR16 *text)
{
	EFI_DEVICE_PATH_PROTOCOL *path = dp_from_text(text);

	EXPECT(path == NULL);
	pool_free(path);
}

TEST(trail_device_path_text)
{
	test_log_capture(LOG_LEVEL_DEBUG);
	from_text(u"PciRoot(0x0)/Pci(0x1F,0x2");
	EXPECT(logged("devpath: \"Pci(0x1F,0x2\": a parenthesis is not closed\n"));
	from_text(u"PciRoot(0x0)/Pci(1,2,3)");
	EXPECT(logged("devpath: Pci() takes 2 parameters\n"));
	from_text(u"PciRoot(0x0)/Pci(0x1F,0x100)");
	EXPECT(logged("devpath: parameter 2 \"0x100\": not a number up to 255\n"));
	EXPECT(logged("devpath: \"Pci(0x1F,0x100)\": refused its parameters\n"));
	from_text(u"VenHw(1234)");
	EXPECT(logged("devpath: parameter 1 \"1234\": not a GUID\n"));
	from_text(u"Sata()");
	EXPECT(logged("devpath: parameter 1 is missing\n"));
	EXPECT(dp_node_from_text(u"/") == NULL);
	EXPECT(logged("devpath: no device node in \"/\"\n"));
	test_log_stop();
}

/* ---- The boot manager ---- */

/* BootOrder names an option that does not exist and one whose file is not on its disk;
 * nothing boots but the fallback's absence. */
static void options_that_fail(void)
{
	static const struct bds_file files[] = {{"/ONE.EFI", 1}};
	static const UINT16 order[] = {3, 2};
	struct bds_platform platform = {0};
	EFI_DEVICE_PATH_PROTOCOL *disk, *missing;

	bds_world_start();
	bds_disk_add(files, 1, &disk);
	missing = bds_file_path(disk, "/MISSING.EFI");
	bds_option_put(u"Boot", 2, LOAD_OPTION_ACTIVE, u"missing", missing, NULL, 0);
	pool_free(missing);
	bds_order_put(u"BootOrder", order, 2);
	test_log_capture(LOG_LEVEL_DEBUG);
	bds_run(&platform);
	EXPECT(!strcmp(bds_runs_text(), ""));
	EXPECT(logged("bds: Boot0003: cannot read it: EFI_NOT_FOUND\n"));
	EXPECT(logged("image: opening \\MISSING.EFI: EFI_NOT_FOUND\n"));
	EXPECT(logged("bds: loading "));
	EXPECT(logged("/\\MISSING.EFI: EFI_NOT_FOUND\n"));
	EXPECT(logged("bds: Boot0002: no image to load (EFI_NOT_FOUND)\n"));
	/* At the default level only what the user must know is logged: here nothing. */
	test_log_capture(LOG_LEVEL_WARN);
	bds_run(&platform);
	EXPECT(!strcmp(test_log_text(), ""));
}

TEST(trail_boot_options_that_fail)
{
	RUN_ISOLATED(options_that_fail);
}
