/* The NVMe driver (drivers/nvme) through the UEFI driver model on a fake controller
 * (fake_nvme.h): namespaces as children with BlockIo, BlockIo2, DiskInfo and NVMe() paths,
 * media from Identify, reads and writes through PRP entries and lists, transfers split at
 * MDTS, flushes, the remaining device path, and Stop and ExitBootServices shutting the
 * controller down. Errors are in test_nvme_errors.c, the pass-through protocol in
 * test_nvme_pass_thru.c, the Identify parsers in test_nvme_identify.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "block_dev.h"
#include "test_nvme.h"
#include <efi/boot_services.h>
#include <efi/protocol/disk_info.h>
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

#define KIB 1024u
#define MIB (1024 * 1024u)

/* ---- What the NVMe tests share (test_nvme.h) ---- */

struct fake_nvme *nvme_test_ctrl(void)
{
	test_install_builtin_drivers();
	return fake_nvme_create(NVME_TEST_PCI_DEV);
}

struct fake_nvme_ns *nvme_test_ns(struct fake_nvme *n, UINT32 nsid, UINT64 blocks, UINT8 shift)
{
	UINT64 bytes = blocks << shift;
	UINT8 *image = malloc(bytes);

	for (UINT64 off = 0; image && off + 8 <= bytes; off += 8) {
		UINT64 v = off + nsid;
		memcpy(image + off, &v, 8);
	}
	return image ? fake_nvme_attach(n, nsid, image, blocks, shift) : NULL;
}

bool nvme_test_image_at(const UINT8 *buffer, UINT64 bytes, UINT64 offset, UINT32 nsid)
{
	for (UINT64 i = 0; i + 8 <= bytes; i += 8) {
		UINT64 v;
		memcpy(&v, buffer + i, 8);
		if (v != offset + i + nsid)
			return false;
	}
	return true;
}

EFI_STATUS nvme_test_connect(struct fake_nvme *n)
{
	return driver_connect(n->pci->handle, NULL, NULL, false);
}

static struct fake_nvme_ns *fake_ns(struct fake_nvme *n, UINT32 nsid)
{
	for (UINT32 i = 0; i < FAKE_NVME_NAMESPACES; i++)
		if (n->ns[i].nsid == nsid)
			return &n->ns[i];
	return NULL;
}

EFI_HANDLE nvme_test_child(struct fake_nvme *n, UINT32 nsid)
{
	struct fake_nvme_ns *ns = fake_ns(n, nsid);
	NVME_NAMESPACE_DEVICE_PATH node = {
	    .Header = {MESSAGING_DEVICE_PATH, MSG_NVME_NAMESPACE_DP, {sizeof(node), 0}},
	    .NamespaceId = nsid,
	};
	EFI_DEVICE_PATH_PROTOCOL *want, *rest;
	EFI_HANDLE handle = NULL;

	if (!ns)
		return NULL;
	memcpy(&node.NamespaceUuid, ns->eui64, 8);
	want = rest = dp_append_node(&n->pci->path.root.Header, &node.Header);
	if (EFI_ERROR(handle_locate_device_path(&efi_block_io_protocol_guid, &rest, &handle)) ||
	    !dp_is_end(rest))
		handle = NULL;
	pool_free(want);
	return handle;
}

EFI_BLOCK_IO_PROTOCOL *nvme_test_block_io(struct fake_nvme *n, UINT32 nsid)
{
	EFI_HANDLE child = nvme_test_child(n, nsid);
	EFI_BLOCK_IO_PROTOCOL *bio = NULL;

	if (child)
		protocol_get(child, &efi_block_io_protocol_guid, (void **)&bio);
	return bio;
}

EFI_NVM_EXPRESS_PASS_THRU_PROTOCOL *nvme_test_pass_thru(struct fake_nvme *n)
{
	EFI_NVM_EXPRESS_PASS_THRU_PROTOCOL *pt = NULL;

	protocol_get(n->pci->handle, &efi_nvm_express_pass_thru_protocol_guid, (void **)&pt);
	return pt;
}

void nvme_test_expect_no_errors(struct fake_nvme *n)
{
	if (!EXPECT_EQ(n->pci->errors, 0))
		printf("    the fake saw: %s\n", n->pci->last_error);
}

void nvme_test_done(struct fake_nvme *n)
{
	UINT64 attributes = n->pci->attributes & ~(UINT64)(EFI_PCI_IO_ATTRIBUTE_MEMORY |
							   EFI_PCI_IO_ATTRIBUTE_BUS_MASTER |
							   EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE);

	EXPECT_STATUS(driver_disconnect(n->pci->handle, NULL, NULL), EFI_SUCCESS);
	EXPECT(fake_pci_io_unclaimed(n->pci));
	EXPECT(nvme_test_pass_thru(n) == NULL);
	EXPECT_EQ(n->pci->attributes, attributes);
	EXPECT_EQ(n->pci->live_buffers, 0);
	EXPECT_EQ(n->pci->live_maps, 0);
	EXPECT_EQ(n->cc & 1, 0);
	for (UINT32 i = 0; i < FAKE_NVME_NAMESPACES; i++) {
		if (!n->ns[i].nsid)
			continue;
		EXPECT(nvme_test_child(n, n->ns[i].nsid) == NULL);
		free(n->ns[i].data);
	}
	nvme_test_expect_no_errors(n);
	fake_nvme_destroy(n);
}

/* ---- Tests ---- */

static CHAR16 *path_text(EFI_HANDLE handle)
{
	EFI_DEVICE_PATH_PROTOCOL *path = NULL;

	if (EFI_ERROR(protocol_get(handle, &efi_device_path_protocol_guid, (void **)&path)))
		return NULL;
	return dp_to_text(path, false, false);
}

TEST(nvme_start_gives_each_namespace_a_child)
{
	struct fake_nvme *n = nvme_test_ctrl();
	EFI_HANDLE child;
	EFI_DISK_INFO_PROTOCOL *info = NULL;
	void *bio2 = NULL;
	CHAR16 *text;

	nvme_test_ns(n, 1, 2048, 9);
	nvme_test_ns(n, 3, 2048, 9);
	ASSERT_STATUS(nvme_test_connect(n), EFI_SUCCESS);
	child = nvme_test_child(n, 3);
	ASSERT(child && nvme_test_child(n, 1));
	text = path_text(child);
	EXPECT(text && str16_cmp(text, u"PciRoot(0x0)/Pci(0x4,0x0)/"
				       u"NVMe(0x3,5A-59-58-57-56-55-54-53)") == 0);
	pool_free(text);
	EXPECT_STATUS(protocol_get(child, &efi_block_io2_protocol_guid, &bio2), EFI_SUCCESS);
	EXPECT_STATUS(protocol_get(child, &efi_disk_info_protocol_guid, (void **)&info),
		      EFI_SUCCESS);
	EXPECT(info && !memcmp(&info->Interface, &efi_disk_info_nvme_interface_guid, 16));
	EXPECT(nvme_test_pass_thru(n) != NULL);
	EXPECT_EQ(n->pci->attributes, EFI_PCI_IO_ATTRIBUTE_MEMORY |
					  EFI_PCI_IO_ATTRIBUTE_BUS_MASTER |
					  EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE);
	/* Polled: interrupts masked, the admin queue and one I/O queue pair. */
	EXPECT_EQ(n->intms, 0xffffffff);
	EXPECT(n->sq[1].exists && n->cq[1].exists && !n->sq[2].exists);
	EXPECT_EQ(n->enables, 1);
	EXPECT_EQ(n->pci->live_buffers, 1);
	nvme_test_done(n);
}

TEST(nvme_media_come_from_identify)
{
	struct fake_nvme *n = nvme_test_ctrl();
	EFI_BLOCK_IO_PROTOCOL *bio;

	nvme_test_ns(n, 1, 300, 12);
	ASSERT_STATUS(nvme_test_connect(n), EFI_SUCCESS);
	bio = nvme_test_block_io(n, 1);
	ASSERT(bio != NULL);
	EXPECT_EQ(bio->Media->BlockSize, 4096);
	EXPECT_EQ(bio->Media->LastBlock, 299);
	EXPECT_EQ(bio->Media->IoAlign, 4);
	EXPECT(bio->Media->MediaPresent && !bio->Media->RemovableMedia && !bio->Media->ReadOnly);
	EXPECT(!bio->Media->WriteCaching);
	nvme_test_done(n);
}

/* A buffer that starts off so that transfers cross pages unaligned. */
static UINT8 *odd_buffer(UINTN bytes, UINT8 **to_free)
{
	*to_free = aligned_alloc(4096, bytes + 8192);
	return *to_free ? *to_free + 4092 : NULL;
}

TEST(nvme_reads_and_writes_blocks)
{
	struct fake_nvme *n = nvme_test_ctrl();
	struct fake_nvme_ns *ns = nvme_test_ns(n, 1, 4096, 9);
	EFI_BLOCK_IO_PROTOCOL *bio;
	UINT8 *mem, *buf = odd_buffer(64 * KIB, &mem);

	ASSERT_STATUS(nvme_test_connect(n), EFI_SUCCESS);
	bio = nvme_test_block_io(n, 1);
	ASSERT(bio && buf);
	/* One block, two pages (PRP2 a page), many pages (a PRP list). */
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 5, 512, buf), EFI_SUCCESS);
	EXPECT(nvme_test_image_at(buf, 512, 5 * 512, 1));
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 7, 4096, buf), EFI_SUCCESS);
	EXPECT(nvme_test_image_at(buf, 4096, 7 * 512, 1));
	EXPECT_EQ(n->prp_lists, 0);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 100, 64 * KIB, buf), EFI_SUCCESS);
	EXPECT(nvme_test_image_at(buf, 64 * KIB, 100 * 512, 1));
	EXPECT_EQ(n->prp_lists, 1);
	EXPECT_EQ(ns->last_lba, 100);
	EXPECT_EQ(ns->last_blocks, 128);
	memset(buf, 0xa5, 8 * KIB);
	EXPECT_STATUS(bio->WriteBlocks(bio, bio->Media->MediaId, 4000, 8 * KIB, buf), EFI_SUCCESS);
	EXPECT(ns->data[4000 * 512] == 0xa5 && ns->data[4016 * 512 - 1] == 0xa5);
	EXPECT(nvme_test_image_at(ns->data + 4016 * 512, 512, 4016 * 512, 1));
	EXPECT_EQ(ns->writes, 1);
	free(mem);
	nvme_test_done(n);
}

static void EFIAPI count_signal(EFI_EVENT event, void *context)
{
	(*(int *)context)++;
}

TEST(nvme_block_io2_completes_tokens)
{
	struct fake_nvme *n = nvme_test_ctrl();
	struct fake_nvme_ns *ns = nvme_test_ns(n, 1, 64, 9);
	EFI_BLOCK_IO2_PROTOCOL *bio2 = NULL;
	EFI_BLOCK_IO2_TOKEN token = {0};
	UINT8 buf[2048];
	int signals = 0;

	ASSERT_STATUS(nvme_test_connect(n), EFI_SUCCESS);
	ASSERT_STATUS(
	    protocol_get(nvme_test_child(n, 1), &efi_block_io2_protocol_guid, (void **)&bio2),
	    EFI_SUCCESS);
	ASSERT_STATUS(event_create(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_signal, &signals, NULL,
				   &token.Event),
		      EFI_SUCCESS);
	token.TransactionStatus = EFI_NOT_READY;
	EXPECT_STATUS(bio2->ReadBlocksEx(bio2, bio2->Media->MediaId, 8, &token, sizeof(buf), buf),
		      EFI_SUCCESS);
	EXPECT_STATUS(token.TransactionStatus, EFI_SUCCESS);
	EXPECT_EQ(signals, 1);
	EXPECT(nvme_test_image_at(buf, sizeof(buf), 8 * 512, 1));
	memset(buf, 0x5a, sizeof(buf));
	EXPECT_STATUS(bio2->WriteBlocksEx(bio2, bio2->Media->MediaId, 0, &token, sizeof(buf), buf),
		      EFI_SUCCESS);
	EXPECT_EQ(ns->data[2047], 0x5a);
	EXPECT_STATUS(bio2->FlushBlocksEx(bio2, &token), EFI_SUCCESS);
	EXPECT_EQ(signals, 3);
	EXPECT_EQ(ns->flushes, 2);
	event_close(token.Event);
	nvme_test_done(n);
}

TEST(nvme_splits_transfers_at_mdts)
{
	struct fake_nvme *n = nvme_test_ctrl();
	struct fake_nvme_ns *ns = nvme_test_ns(n, 1, 8192, 9);
	EFI_BLOCK_IO_PROTOCOL *bio;
	UINT8 *buf = malloc(3 * MIB / 2);

	n->identify[77] = 7; /* 512 KiB a command */
	ASSERT_STATUS(nvme_test_connect(n), EFI_SUCCESS);
	bio = nvme_test_block_io(n, 1);
	ASSERT(bio && buf);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 1, 3 * MIB / 2, buf), EFI_SUCCESS);
	EXPECT(nvme_test_image_at(buf, 3 * MIB / 2, 512, 1));
	EXPECT_EQ(ns->reads, 3);
	EXPECT_EQ(n->max_transfer, 512 * KIB);
	free(buf);
	nvme_test_done(n);
}

TEST(nvme_without_mdts_moves_a_full_prp_list_at_once)
{
	struct fake_nvme *n = nvme_test_ctrl();
	struct fake_nvme_ns *ns = nvme_test_ns(n, 1, 8192, 9);
	EFI_BLOCK_IO_PROTOCOL *bio;
	UINT8 *buf = malloc(4 * MIB);

	n->identify[77] = 0; /* no limit: the driver's own, one PRP list */
	ASSERT_STATUS(nvme_test_connect(n), EFI_SUCCESS);
	bio = nvme_test_block_io(n, 1);
	ASSERT(bio && buf);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 0, 4 * MIB, buf), EFI_SUCCESS);
	EXPECT(nvme_test_image_at(buf, 4 * MIB, 0, 1));
	EXPECT_EQ(ns->reads, 2);
	EXPECT_EQ(n->max_transfer, 2 * MIB);
	free(buf);
	nvme_test_done(n);
}

TEST(nvme_writes_are_flushed_when_the_cache_is_volatile)
{
	struct fake_nvme *n = nvme_test_ctrl();
	struct fake_nvme_ns *ns = nvme_test_ns(n, 1, 64, 9);
	EFI_BLOCK_IO_PROTOCOL *bio;
	UINT8 buf[1024] = {0};

	ASSERT_STATUS(nvme_test_connect(n), EFI_SUCCESS);
	bio = nvme_test_block_io(n, 1);
	ASSERT(bio != NULL);
	EXPECT_STATUS(bio->WriteBlocks(bio, bio->Media->MediaId, 2, sizeof(buf), buf), EFI_SUCCESS);
	EXPECT_EQ(ns->flushes, 1);
	EXPECT_STATUS(bio->FlushBlocks(bio), EFI_SUCCESS);
	EXPECT_EQ(ns->flushes, 2);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 2, sizeof(buf), buf), EFI_SUCCESS);
	EXPECT_EQ(ns->flushes, 2);
	nvme_test_done(n);
}

TEST(nvme_without_a_volatile_cache_sends_no_flush)
{
	struct fake_nvme *n = nvme_test_ctrl();
	struct fake_nvme_ns *ns = nvme_test_ns(n, 1, 64, 9);
	EFI_BLOCK_IO_PROTOCOL *bio;
	UINT8 buf[512] = {0};

	n->identify[525] = 0;
	ASSERT_STATUS(nvme_test_connect(n), EFI_SUCCESS);
	bio = nvme_test_block_io(n, 1);
	ASSERT(bio != NULL);
	EXPECT_STATUS(bio->WriteBlocks(bio, bio->Media->MediaId, 2, sizeof(buf), buf), EFI_SUCCESS);
	EXPECT_STATUS(bio->FlushBlocks(bio), EFI_SUCCESS);
	EXPECT_EQ(ns->flushes, 0);
	nvme_test_done(n);
}

TEST(nvme_stop_shuts_the_controller_down)
{
	struct fake_nvme *n = nvme_test_ctrl();

	nvme_test_ns(n, 1, 64, 9);
	ASSERT_STATUS(nvme_test_connect(n), EFI_SUCCESS);
	EXPECT_EQ(n->shutdowns, 0);
	EXPECT_STATUS(driver_disconnect(n->pci->handle, NULL, NULL), EFI_SUCCESS);
	EXPECT_EQ(n->shutdowns, 1);
	nvme_test_done(n);
}

TEST(nvme_remaining_path_names_one_namespace)
{
	struct fake_nvme *n = nvme_test_ctrl();
	NVME_NAMESPACE_DEVICE_PATH node[2] = {
	    {.Header = {MESSAGING_DEVICE_PATH, MSG_NVME_NAMESPACE_DP, {sizeof(node[0]), 0}},
	     .NamespaceId = 3},
	    {.Header = {END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {4, 0}}},
	};

	nvme_test_ns(n, 1, 64, 9);
	nvme_test_ns(n, 3, 64, 9);
	ASSERT_STATUS(driver_connect(n->pci->handle, NULL, &node[0].Header, false), EFI_SUCCESS);
	EXPECT(nvme_test_child(n, 3) != NULL);
	EXPECT(nvme_test_child(n, 1) == NULL);
	/* A namespace that does not exist is not made; NULL makes the rest. */
	node[0].NamespaceId = 2;
	EXPECT(driver_connect(n->pci->handle, NULL, &node[0].Header, false) != EFI_SUCCESS);
	EXPECT_STATUS(nvme_test_connect(n), EFI_SUCCESS);
	EXPECT(nvme_test_child(n, 1) != NULL);
	EXPECT_EQ(n->enables, 1);
	nvme_test_done(n);
}

TEST(nvme_namespace_it_cannot_use_gets_no_child)
{
	struct fake_nvme *n = nvme_test_ctrl();
	struct fake_nvme_ns *meta = nvme_test_ns(n, 1, 64, 9);
	struct fake_nvme_ns *small = nvme_test_ns(n, 2, 64, 9);

	nvme_test_ns(n, 3, 64, 9);
	meta->identify[128] = 8;      /* 8 bytes of metadata a block */
	small->identify[128 + 2] = 8; /* 256-byte blocks */
	ASSERT_STATUS(nvme_test_connect(n), EFI_SUCCESS);
	EXPECT(nvme_test_child(n, 1) == NULL);
	EXPECT(nvme_test_child(n, 2) == NULL);
	EXPECT(nvme_test_child(n, 3) != NULL);
	nvme_test_done(n);
}

TEST(nvme_stop_leaves_a_child_in_use)
{
	struct fake_nvme *n = nvme_test_ctrl();
	EFI_HANDLE child, agent = NULL;
	void *bio;

	nvme_test_ns(n, 1, 64, 9);
	ASSERT_STATUS(nvme_test_connect(n), EFI_SUCCESS);
	child = nvme_test_child(n, 1);
	ASSERT(child != NULL);
	ASSERT_STATUS(protocol_install(&agent, &efi_device_path_protocol_guid, NULL), EFI_SUCCESS);
	ASSERT_STATUS(protocol_open(child, &efi_block_io_protocol_guid, &bio, agent, NULL,
				    EFI_OPEN_PROTOCOL_EXCLUSIVE),
		      EFI_SUCCESS);
	EXPECT(driver_disconnect(n->pci->handle, NULL, NULL) != EFI_SUCCESS);
	EXPECT(nvme_test_child(n, 1) == child);
	EXPECT_EQ(n->cc & 1, 1);
	protocol_close(child, &efi_block_io_protocol_guid, agent, NULL);
	protocol_uninstall(agent, &efi_device_path_protocol_guid, NULL);
	nvme_test_done(n);
}

static void exit_boot_services(void)
{
	static const EFI_GUID exit_group = EFI_EVENT_GROUP_EXIT_BOOT_SERVICES;
	struct fake_nvme *n = nvme_test_ctrl();

	UINT8 *image = nvme_test_ns(n, 1, 64, 9)->data;

	ASSERT_STATUS(nvme_test_connect(n), EFI_SUCCESS);
	event_signal_group(&exit_group);
	/* No DMA after ExitBootServices: shut down (the cache written out), then disabled. */
	EXPECT_EQ(n->shutdowns, 1);
	EXPECT_EQ(n->cc & 1, 0);
	nvme_test_expect_no_errors(n);
	fake_nvme_destroy(n);
	free(image);
}

TEST(nvme_exit_boot_services_shuts_the_controller_down)
{
	RUN_ISOLATED(exit_boot_services);
}
