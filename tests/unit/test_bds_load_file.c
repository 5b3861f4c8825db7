/* The boot manager's network boot (bds/load_file.c): an option whose path is a LoadFile
 * device is read with LoadFile (size, then buffer) and started from the buffer; a URL
 * option (.../Uri(url)) reaches the device's LoadFile with the remaining path; an answer of
 * EFI_WARN_FILE_SYSTEM (an ISO or disk image over HTTP) becomes a RAM disk whose
 * \EFI\BOOT\BOOTX64.EFI is started. Each test in its own process (bds_fixture.c). */
#include <stdlib.h>
#include <string.h>

#include "bds_fixture.h"
#include "support/test.h"
#include <efi/protocol/load_file.h>
#include <ember/core/bds.h>
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/lib/devpath_node.h>
#include <ember/lib/guids.h>

static struct {
	EFI_LOAD_FILE_PROTOCOL lf;
	UINT8 *file;
	size_t size;
	EFI_STATUS answer; /* of the call with a buffer */
	unsigned calls;
	UINTN rest_size; /* of the remaining path of the first call */
} nic;

static EFI_STATUS EFIAPI fake_load_file(EFI_LOAD_FILE_PROTOCOL *this,
					EFI_DEVICE_PATH_PROTOCOL *path, BOOLEAN boot_policy,
					UINTN *size, VOID *buffer)
{
	if (!nic.calls++)
		nic.rest_size = path ? dp_size(path) : 0;
	if (!boot_policy)
		return EFI_UNSUPPORTED;
	if (!buffer || *size < nic.size) {
		*size = nic.size;
		return EFI_BUFFER_TOO_SMALL;
	}
	memcpy(buffer, nic.file, nic.size);
	*size = nic.size;
	return nic.answer;
}

#pragma pack(push, 1)
static struct {
	VENDOR_DEVICE_PATH ven;
	MAC_ADDR_DEVICE_PATH mac;
	EFI_DEVICE_PATH_PROTOCOL end;
} nic_path;
#pragma pack(pop)

/* A NIC-like handle VenHw()/MAC() with the fake LoadFile. */
static EFI_DEVICE_PATH_PROTOCOL *add_nic(void)
{
	EFI_HANDLE h = NULL;

	dp_set_node(&nic_path.ven.Header, HARDWARE_DEVICE_PATH, HW_VENDOR_DP, sizeof(nic_path.ven));
	dp_set_node(&nic_path.mac.Header, MESSAGING_DEVICE_PATH, MSG_MAC_ADDR_DP,
		    sizeof(nic_path.mac));
	nic_path.mac.MacAddress.Addr[0] = 0x52;
	nic_path.mac.IfType = 1;
	dp_set_end(&nic_path.end);
	nic.lf.LoadFile = fake_load_file;
	ASSERT_STATUS(protocol_install_multiple(&h, &efi_device_path_protocol_guid, &nic_path,
						&efi_load_file_protocol_guid, &nic.lf, NULL),
		      EFI_SUCCESS);
	return (EFI_DEVICE_PATH_PROTOCOL *)&nic_path;
}

/* path followed by Uri(url). */
static EFI_DEVICE_PATH_PROTOCOL *with_uri(EFI_DEVICE_PATH_PROTOCOL *path, const char *url)
{
	size_t n = strlen(url);
	EFI_DEVICE_PATH_PROTOCOL *node =
	    dp_create_node(MESSAGING_DEVICE_PATH, MSG_URI_DP, (UINT16)(4 + n));
	EFI_DEVICE_PATH_PROTOCOL *full;

	memcpy((UINT8 *)node + 4, url, n);
	full = dp_append_node(path, node);
	pool_free(node);
	return full;
}

static void boot_option(EFI_DEVICE_PATH_PROTOCOL *path)
{
	static const UINT16 order[] = {1};
	struct bds_platform platform = {0};

	bds_option_put(u"Boot", 1, LOAD_OPTION_ACTIVE, u"network", path, NULL, 0);
	bds_order_put(u"BootOrder", order, 1);
	bds_run(&platform);
}

static void image_from_load_file(void)
{
	bds_world_start();
	nic.file = bds_program(5, &nic.size);
	nic.answer = EFI_SUCCESS;
	boot_option(add_nic());
	ASSERT(bds_world.run_count >= 1);
	EXPECT_EQ(bds_world.runs[0].id, 5);
	EXPECT_EQ(bds_world.runs[0].boot_current, 1);
	EXPECT(nic.calls >= 2);
	EXPECT_EQ(nic.rest_size, 4u); /* the end node alone */
}

TEST(bds_load_file_boots_the_image_it_reads)
{
	RUN_ISOLATED(image_from_load_file);
}

static void uri_option(void)
{
	EFI_DEVICE_PATH_PROTOCOL *path;

	bds_world_start();
	nic.file = bds_program(6, &nic.size);
	nic.answer = EFI_SUCCESS;
	path = with_uri(add_nic(), "http://10.0.2.2/boot.efi");
	boot_option(path);
	ASSERT(bds_world.run_count >= 1);
	EXPECT_EQ(bds_world.runs[0].id, 6);
	EXPECT_EQ(nic.rest_size, 4u + 4 + strlen("http://10.0.2.2/boot.efi"));
	pool_free(path);
}

TEST(bds_load_file_uri_option_reaches_the_nic)
{
	RUN_ISOLATED(uri_option);
}

static void disk_image(void)
{
	static const struct bds_file files[] = {{"/EFI/BOOT/BOOTX64.EFI", 9}};

	bds_world_start();
	nic.file = bds_fat_image(files, 1, &nic.size);
	nic.answer = EFI_WARN_FILE_SYSTEM;
	boot_option(add_nic());
	ASSERT(bds_world.run_count >= 1);
	EXPECT_EQ(bds_world.runs[0].id, 9);
	EXPECT_EQ(bds_world.runs[0].boot_current, 1);
}

TEST(bds_load_file_disk_image_boots_through_a_ram_disk)
{
	RUN_ISOLATED(disk_image);
}
