/* Default boot options (bds/defaults.c, UEFI 2.10 3.4.1.1): one per file system holding
 * \EFI\BOOT\BOOTX64.EFI, marked as Ember's own, appended to BootOrder once, removed when
 * the device or its file goes, ordered by the platform's ranks; options others wrote are
 * never touched. */
#include <string.h>

#include "bds_fixture.h"
#include "../../bds/bds.h"
#include "support/test.h"
#include <ember/core/bds.h>
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/lib/str.h>
#include <efi/protocol/load_file.h>

static const struct bds_file removable_a[] = {{"/EFI/BOOT/BOOTX64.EFI", 1}};
static const struct bds_file removable_b[] = {{"/EFI/BOOT/BOOTX64.EFI", 2}};
static const struct bds_file not_removable[] = {{"/EFI/debian/grubx64.efi", 3}};

/* The option's description, or an empty string. */
static void description_of(UINT16 number, CHAR16 *out, UINTN max)
{
	struct bds_option o;

	out[0] = 0;
	if (!bds_option_read(u"Boot", number, &o))
		return;
	if (str16_size(o.lo.description) <= max * sizeof(CHAR16))
		str16_copy(out, o.lo.description);
	bds_option_free(&o);
}

static void created_and_booted(void)
{
	struct bds_platform platform = {0};
	UINT16 order[8];
	CHAR16 text[96];
	UINT64 steps;

	bds_world_start();
	bds_disk_add(removable_a, 1, NULL);
	bds_disk_add(not_removable, 1, NULL);
	bds_run(&platform);
	/* One option, for the disk with the removable-media file; booted without
	 * LoadOptions (Ember's marker is not an argument). */
	ASSERT_EQ(bds_order_get(u"BootOrder", order, 8), 1);
	EXPECT(!strcmp(bds_runs_text(), "1"));
	EXPECT_EQ(bds_world.runs[0].load_options_size, 0);
	EXPECT_EQ(bds_world.runs[0].boot_current, order[0]);
	description_of(order[0], text, 96);
	EXPECT(!mem_cmp(text, u"UEFI ", 10));
	/* A second start finds it there: no new option, no flash write for the order. */
	steps = bds_flash_steps();
	bds_run(&platform);
	EXPECT_EQ(bds_order_get(u"BootOrder", order, 8), 1);
	EXPECT(!strcmp(bds_runs_text(), "1,1"));
	EXPECT_EQ(bds_flash_steps() - steps, 0); /* BootCurrent is volatile */
}

TEST(bds_defaults_created_once_and_booted)
{
	RUN_ISOLATED(created_and_booted);
}

/* A disk that goes takes its option with it; an option a user wrote for the same device
 * stays. */
static void stale_removed_user_kept(void)
{
	struct bds_platform platform = {0};
	EFI_DEVICE_PATH_PROTOCOL *path_b, *user_path;
	EFI_HANDLE disk_b;
	UINT16 order[8], user_order[8];
	UINTN count;

	bds_world_start();
	bds_disk_add(removable_a, 1, NULL);
	disk_b = bds_disk_add(removable_b, 1, &path_b);
	user_path = bds_file_path(path_b, "/EFI/BOOT/BOOTX64.EFI");
	bds_option_put(u"Boot", 0x100, LOAD_OPTION_ACTIVE, u"mine", user_path, NULL, 0);
	pool_free(user_path);
	bds_run(&platform);
	count = bds_order_get(u"BootOrder", order, 8);
	EXPECT_EQ(count, 2); /* the user's option is not in BootOrder: only the two auto ones */
	EXPECT(!strcmp(bds_runs_text(), "1,2"));
	mem_copy(user_order, order, sizeof(order));
	user_order[count] = 0x100;
	bds_order_put(u"BootOrder", user_order, count + 1);
	bds_disk_remove(disk_b);
	bds_world.run_count = 0;
	bds_run(&platform);
	count = bds_order_get(u"BootOrder", order, 8);
	ASSERT_EQ(count, 2);
	EXPECT_EQ(order[1], 0x100);
	EXPECT(!strcmp(bds_runs_text(), "1"));
}

TEST(bds_defaults_stale_removed_user_kept)
{
	RUN_ISOLATED(stale_removed_user_kept);
}

static EFI_DEVICE_PATH_PROTOCOL *preferred;

/* The platform prefers the device `preferred` (QEMU's bootindex=0), nothing else. */
static int rank(const EFI_DEVICE_PATH_PROTOCOL *path)
{
	return dp_starts_with(path, preferred) ? 0 : -1;
}

static void ranked(void)
{
	struct bds_platform platform = {.boot_rank = rank};
	UINT16 order[8];

	bds_world_start();
	bds_disk_add(removable_a, 1, NULL);
	bds_disk_add(removable_b, 1, &preferred);
	bds_run(&platform);
	EXPECT_EQ(bds_order_get(u"BootOrder", order, 8), 2);
	EXPECT(!strcmp(bds_runs_text(), "2,1"));
}

TEST(bds_defaults_platform_rank_first)
{
	RUN_ISOLATED(ranked);
}

/* A network device as iPXE's option ROM driver makes one: LoadFile on a child whose path
 * ends in MAC(); the boot program comes from LoadFile(BootPolicy=TRUE), size asked first. */
static struct {
	EFI_LOAD_FILE_PROTOCOL protocol;
	UINT8 *program;
	size_t size;
	unsigned calls, size_queries, boot_policy_false;
} nic;

static EFI_STATUS EFIAPI nic_load_file(EFI_LOAD_FILE_PROTOCOL *this, EFI_DEVICE_PATH_PROTOCOL *path,
				       BOOLEAN boot_policy, UINTN *size, VOID *buffer)
{
	nic.calls++;
	if (!boot_policy)
		nic.boot_policy_false++;
	if (!buffer || *size < nic.size) {
		nic.size_queries += *size == 0;
		*size = nic.size;
		return EFI_BUFFER_TOO_SMALL;
	}
	memcpy(buffer, nic.program, nic.size);
	*size = nic.size;
	return EFI_SUCCESS;
}

static void network_device_option(void)
{
	static const EFI_GUID lf_guid = EFI_LOAD_FILE_PROTOCOL_GUID;
	static const EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
	struct bds_platform platform = {0};
	EFI_DEVICE_PATH_PROTOCOL *path =
	    dp_from_text(u"PciRoot(0x0)/Pci(0x2,0x0)/MAC(525400123456,0x1)");
	EFI_HANDLE handle = NULL;
	UINT16 order[8];
	CHAR16 text[96];

	bds_world_start();
	nic.protocol.LoadFile = nic_load_file;
	nic.program = bds_program(7, &nic.size);
	bds_world.status_of[7] = EFI_SUCCESS;
	ASSERT(path != NULL);
	ASSERT_STATUS(
	    protocol_install_multiple(&handle, &dp_guid, path, &lf_guid, &nic.protocol, NULL),
	    EFI_SUCCESS);
	bds_run(&platform);
	ASSERT_EQ(bds_order_get(u"BootOrder", order, 8), 1);
	description_of(order[0], text, 96);
	EXPECT(!mem_cmp(text, u"UEFI PXEv4 (MAC:525400123456)",
			sizeof(u"UEFI PXEv4 (MAC:525400123456)")));
	EXPECT(!strcmp(bds_runs_text(), "7"));
	EXPECT(nic.size_queries >= 1);
	EXPECT_EQ(nic.boot_policy_false, 0);
	/* The device is still there at the next start: the option stays, no second one. */
	bds_run(&platform);
	EXPECT_EQ(bds_order_get(u"BootOrder", order, 8), 1);
}

TEST(bds_defaults_network_device_option)
{
	RUN_ISOLATED(network_device_option);
}
