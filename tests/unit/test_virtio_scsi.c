/* The virtio-scsi driver (drivers/virtio/virtio_scsi*.c) and the EXT_SCSI_PASS_THRU front
 * end over it (drivers/scsi/scsi_pass_thru.c), on a fake virtio-scsi device: disks read and
 * written through the SCSI bus and disk drivers on the modern, transitional and legacy
 * interfaces; PassThru's argument checks in 15.7's order; statuses, sense data and
 * residuals; target and LUN enumeration and device path nodes; LUN and channel resets; a
 * command that times out; ExitBootServices and Stop giving everything back. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "fake_virtio_scsi.h"
#include "scsi_test_util.h"
#include "virtio_driver_check.h"
#include <efi/protocol/ext_scsi_pass_thru.h>
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>

static EFI_EXT_SCSI_PASS_THRU_PROTOCOL *pass_thru(struct fake_virtio *d)
{
	EFI_EXT_SCSI_PASS_THRU_PROTOCOL *pt = NULL;

	driver_connect(d->pci->handle, NULL, NULL, false);
	protocol_get(d->pci->handle, &efi_ext_scsi_pass_thru_protocol_guid, (void **)&pt);
	return pt;
}

/* The device path text of the fake's function with node appended. */
static CHAR16 *path_of(struct fake_virtio *d, const CHAR16 *node, CHAR16 *text)
{
	EFI_DEVICE_PATH_PROTOCOL *path;
	CHAR16 *pci;
	UINTN n;

	protocol_get(d->pci->handle, &efi_device_path_protocol_guid, (void **)&path);
	pci = dp_to_text(path, false, false);
	n = str16_len(pci);
	mem_copy(text, pci, n * 2);
	text[n++] = u'/';
	mem_copy(text + n, node, (str16_len(node) + 1) * 2);
	pool_free(pci);
	return text;
}

static void disks_on(enum fake_virtio_interface interface)
{
	struct fake_virtio *d = fake_virtio_scsi_create(interface);
	struct fake_virtio_scsi *v = fake_virtio_scsi(d);
	struct fake_scsi_lu *lu = fake_scsi_add(&v->scsi, 0, 0, 0, 512, 4096);
	CHAR16 text[160];
	EFI_BLOCK_IO_PROTOCOL *bio;
	UINT8 *buf = malloc(65536);

	fake_scsi_add(&v->scsi, 1, 2, 5, 2048, 64);
	driver_connect(d->pci->handle, NULL, NULL, true);
	EXPECT(scsi_test_handle(path_of(d, u"Scsi(0x1,0x2)", text)) != NULL);
	bio = scsi_test_protocol(path_of(d, u"Scsi(0x0,0x0)", text), &efi_block_io_protocol_guid);
	ASSERT(bio != NULL);
	EXPECT_EQ(bio->Media->LastBlock, 4095);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 7, 65536, buf), EFI_SUCCESS);
	EXPECT(scsi_test_holds(buf, lu->seed, 7 * 512, 65536));
	memset(buf, 0xa5, 4096);
	EXPECT_STATUS(bio->WriteBlocks(bio, bio->Media->MediaId, 9, 4096, buf), EFI_SUCCESS);
	EXPECT(lu->medium[9 * 512] == 0xa5 && lu->medium[17 * 512 - 1] == 0xa5);
	EXPECT_STATUS(bio->FlushBlocks(bio), EFI_SUCCESS);
	EXPECT_EQ(lu->syncs, 1);
	virtio_check_disconnect(d);
	virtio_check_clean(d);
	free(buf);
	fake_virtio_scsi_destroy(d);
}

TEST(virtio_scsi_disks_modern)
{
	disks_on(FAKE_VIRTIO_MODERN);
}

TEST(virtio_scsi_disks_transitional)
{
	disks_on(FAKE_VIRTIO_TRANSITIONAL);
}

TEST(virtio_scsi_disks_legacy)
{
	disks_on(FAKE_VIRTIO_LEGACY);
}

static EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET inquiry(UINT8 *cdb, UINT8 *data, UINT32 len)
{
	memset(cdb, 0, 6);
	cdb[0] = 0x12;
	cdb[4] = (UINT8)len;
	return (EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET){.Timeout = 10000000,
							    .InDataBuffer = data,
							    .Cdb = cdb,
							    .InTransferLength = len,
							    .CdbLength = 6,
							    .DataDirection =
								EFI_EXT_SCSI_DATA_DIRECTION_READ};
}

TEST(virtio_scsi_pass_thru_checks)
{
	struct fake_virtio *d = fake_virtio_scsi_create(FAKE_VIRTIO_MODERN);
	EFI_EXT_SCSI_PASS_THRU_PROTOCOL *pt;
	UINT8 target[TARGET_MAX_BYTES] = {0}, cdb[40] = {0}, data[255], sense[18];
	EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET p;
	UINTN sent;

	fake_scsi_add(&fake_virtio_scsi(d)->scsi, 0, 0, 0, 512, 64);
	pt = pass_thru(d);
	ASSERT(pt != NULL);
	sent = fake_virtio_scsi(d)->commands; /* the SCSI bus driver's scan */
	EXPECT_EQ(pt->Mode->Attributes, EFI_EXT_SCSI_PASS_THRU_ATTRIBUTES_PHYSICAL |
					    EFI_EXT_SCSI_PASS_THRU_ATTRIBUTES_LOGICAL);
	EXPECT_EQ(pt->Mode->IoAlign, 0);
	p = inquiry(cdb, data, 255);
	EXPECT_STATUS(pt->PassThru(pt, NULL, 0, &p, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(pt->PassThru(pt, target, 0, NULL, NULL), EFI_INVALID_PARAMETER);
	target[2] = 1;
	EXPECT_STATUS(pt->PassThru(pt, target, 0, &p, NULL), EFI_INVALID_PARAMETER);
	target[2] = 0, target[1] = 1; /* target 256: beyond max_target */
	EXPECT_STATUS(pt->PassThru(pt, target, 0, &p, NULL), EFI_INVALID_PARAMETER);
	target[1] = 0;
	EXPECT_STATUS(pt->PassThru(pt, target, 16384, &p, NULL), EFI_INVALID_PARAMETER);
	p.CdbLength = 0;
	EXPECT_STATUS(pt->PassThru(pt, target, 0, &p, NULL), EFI_INVALID_PARAMETER);
	p.CdbLength = 33;
	EXPECT_STATUS(pt->PassThru(pt, target, 0, &p, NULL), EFI_UNSUPPORTED);
	p = inquiry(cdb, data, 255);
	p.DataDirection = 3;
	EXPECT_STATUS(pt->PassThru(pt, target, 0, &p, NULL), EFI_INVALID_PARAMETER);
	p = inquiry(cdb, NULL, 255);
	EXPECT_STATUS(pt->PassThru(pt, target, 0, &p, NULL), EFI_INVALID_PARAMETER);
	p = inquiry(cdb, data, 255);
	p.SenseDataLength = 18;
	EXPECT_STATUS(pt->PassThru(pt, target, 0, &p, NULL), EFI_INVALID_PARAMETER);
	/* More than max_sectors: the packet says how much one command moves. */
	p = inquiry(cdb, data, 255);
	p.InTransferLength = 0x2000000;
	EXPECT_STATUS(pt->PassThru(pt, target, 0, &p, NULL), EFI_BAD_BUFFER_SIZE);
	EXPECT_EQ(p.InTransferLength, 0xffff * 512);
	EXPECT_EQ(fake_virtio_scsi(d)->commands, sent); /* none of these reached the device */
	/* A good one: the residual shortens the transfer. */
	p = inquiry(cdb, data, 255);
	p.SenseData = sense;
	p.SenseDataLength = sizeof(sense);
	EXPECT_STATUS(pt->PassThru(pt, target, 0, &p, NULL), EFI_SUCCESS);
	EXPECT_EQ(p.InTransferLength, 96);
	EXPECT_EQ(p.HostAdapterStatus, EFI_EXT_SCSI_STATUS_HOST_ADAPTER_OK);
	EXPECT_EQ(p.TargetStatus, EFI_EXT_SCSI_STATUS_TARGET_GOOD);
	EXPECT_EQ(p.SenseDataLength, 0);
	/* Sent at TPL_CALLBACK, so that no callback shares the request buffers meanwhile. */
	EXPECT_EQ(fake_virtio_scsi(d)->tpl, TPL_CALLBACK);
	virtio_check_no_errors(d);
	virtio_check_disconnect(d);
	fake_virtio_scsi_destroy(d);
}

TEST(virtio_scsi_pass_thru_statuses)
{
	struct fake_virtio *d = fake_virtio_scsi_create(FAKE_VIRTIO_TRANSITIONAL);
	struct fake_virtio_scsi *v = fake_virtio_scsi(d);
	EFI_EXT_SCSI_PASS_THRU_PROTOCOL *pt;
	UINT8 target[TARGET_MAX_BYTES] = {0}, cdb[16] = {0x25}, data[255], sense[40];
	EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET p;
	static const UINT8 lun_field[8] = {1, 3, 0x41, 0x23};

	fake_scsi_add(&v->scsi, 0, 0, 0, 512, 64);
	pt = pass_thru(d);
	ASSERT(pt != NULL);
	/* CHECK CONDITION: the target's status and its sense, as much as the caller has room. */
	p = inquiry(cdb, data, 8);
	cdb[0] = 0x25;
	p.CdbLength = 10;
	p.SenseData = sense;
	p.SenseDataLength = 8;
	EXPECT_STATUS(pt->PassThru(pt, target, 7, &p, NULL), EFI_DEVICE_ERROR);
	EXPECT_EQ(p.HostAdapterStatus, EFI_EXT_SCSI_STATUS_HOST_ADAPTER_OK);
	EXPECT_EQ(p.TargetStatus, EFI_EXT_SCSI_STATUS_TARGET_CHECK_CONDITION);
	EXPECT_EQ(p.SenseDataLength, 8);
	EXPECT_EQ(sense[0], 0x70);
	EXPECT_EQ(sense[2], 0x5);
	/* No such target. */
	p = inquiry(cdb, data, 36);
	target[0] = 3;
	EXPECT_STATUS(pt->PassThru(pt, target, 0x123, &p, NULL), EFI_DEVICE_ERROR);
	EXPECT_EQ(p.HostAdapterStatus, EFI_EXT_SCSI_STATUS_HOST_ADAPTER_SELECTION_TIMEOUT);
	EXPECT(memcmp(v->last_lun, lun_field, 8) == 0);
	/* A busy device, and more data than the buffer. */
	target[0] = 0;
	v->next_response = 5;
	p = inquiry(cdb, data, 36);
	EXPECT_STATUS(pt->PassThru(pt, target, 0, &p, NULL), EFI_NOT_READY);
	v->next_response = 1;
	p = inquiry(cdb, data, 36);
	EXPECT_STATUS(pt->PassThru(pt, target, 0, &p, NULL), EFI_BAD_BUFFER_SIZE);
	EXPECT_EQ(p.HostAdapterStatus, EFI_EXT_SCSI_STATUS_HOST_ADAPTER_DATA_OVERRUN_UNDERRUN);
	/* A residual larger than the transfer is taken as "nothing arrived". */
	v->extra_residual = 1000;
	p = inquiry(cdb, data, 36);
	EXPECT_STATUS(pt->PassThru(pt, target, 0, &p, NULL), EFI_SUCCESS);
	EXPECT_EQ(p.InTransferLength, 0);
	virtio_check_no_errors(d);
	virtio_check_disconnect(d);
	fake_virtio_scsi_destroy(d);
}

TEST(virtio_scsi_targets_luns_and_paths)
{
	struct fake_virtio *d = fake_virtio_scsi_create(FAKE_VIRTIO_MODERN);
	EFI_EXT_SCSI_PASS_THRU_PROTOCOL *pt = pass_thru(d);
	UINT8 buf[TARGET_MAX_BYTES], *target = buf;
	EFI_DEVICE_PATH_PROTOCOL *node = NULL, *other;
	UINT64 lun = 0;

	ASSERT(pt != NULL);
	memset(buf, 0xff, sizeof(buf));
	EXPECT_STATUS(pt->GetNextTargetLun(pt, &target, &lun), EFI_SUCCESS);
	EXPECT(buf[0] == 0 && lun == 0);
	EXPECT_STATUS(pt->GetNextTargetLun(pt, &target, &lun), EFI_SUCCESS);
	EXPECT(buf[0] == 0 && lun == 1);
	lun = 16383;
	EXPECT_STATUS(pt->GetNextTargetLun(pt, &target, &lun), EFI_SUCCESS);
	EXPECT(buf[0] == 1 && lun == 0);
	buf[0] = 255, lun = 16383;
	EXPECT_STATUS(pt->GetNextTargetLun(pt, &target, &lun), EFI_NOT_FOUND);
	buf[5] = 1;
	EXPECT_STATUS(pt->GetNextTargetLun(pt, &target, &lun), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(pt->GetNextTarget(pt, &target), EFI_INVALID_PARAMETER);
	memset(buf, 0xff, sizeof(buf));
	EXPECT_STATUS(pt->GetNextTarget(pt, &target), EFI_SUCCESS);
	EXPECT_EQ(buf[0], 0);
	buf[0] = 255;
	EXPECT_STATUS(pt->GetNextTarget(pt, &target), EFI_NOT_FOUND);
	buf[0] = 4;
	EXPECT_STATUS(pt->BuildDevicePath(pt, buf, 9, &node), EFI_SUCCESS);
	ASSERT(node != NULL);
	EXPECT(str16_cmp(dp_node_to_text(node, false, false), u"Scsi(0x4,0x9)") == 0);
	memset(buf, 0, sizeof(buf));
	EXPECT_STATUS(pt->GetTargetLun(pt, node, &target, &lun), EFI_SUCCESS);
	EXPECT(buf[0] == 4 && lun == 9);
	((SCSI_DEVICE_PATH *)node)->Pun = 300;
	EXPECT_STATUS(pt->GetTargetLun(pt, node, &target, &lun), EFI_NOT_FOUND);
	other = dp_from_text(u"Pci(0x1,0x0)");
	EXPECT_STATUS(pt->GetTargetLun(pt, other, &target, &lun), EFI_UNSUPPORTED);
	buf[0] = 0, buf[1] = 2;
	EXPECT_STATUS(pt->BuildDevicePath(pt, buf, 0, &node), EFI_NOT_FOUND);
	EXPECT_STATUS(pt->BuildDevicePath(pt, buf, 0, NULL), EFI_INVALID_PARAMETER);
	pool_free(node);
	pool_free(other);
	virtio_check_disconnect(d);
	fake_virtio_scsi_destroy(d);
}

TEST(virtio_scsi_resets_and_timeout)
{
	struct fake_virtio *d = fake_virtio_scsi_create(FAKE_VIRTIO_MODERN);
	struct fake_virtio_scsi *v = fake_virtio_scsi(d);
	EFI_EXT_SCSI_PASS_THRU_PROTOCOL *pt;
	UINT8 target[TARGET_MAX_BYTES] = {1}, cdb[6], data[36];
	static const UINT8 lun_field[8] = {1, 1, 0x40, 2};
	EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET p;
	UINTN resets;

	fake_scsi_add(&v->scsi, 1, 2, 0, 512, 64);
	pt = pass_thru(d);
	ASSERT(pt != NULL);
	EXPECT_STATUS(pt->ResetTargetLun(pt, target, 2), EFI_SUCCESS);
	EXPECT_EQ(v->tmfs, 1);
	EXPECT(memcmp(v->last_lun, lun_field, 8) == 0);
	EXPECT_STATUS(pt->ResetTargetLun(pt, target, 20000), EFI_INVALID_PARAMETER);
	resets = d->stats.resets;
	EXPECT_STATUS(pt->ResetChannel(pt), EFI_SUCCESS);
	EXPECT(d->stats.resets > resets);
	p = inquiry(cdb, data, 36);
	EXPECT_STATUS(pt->PassThru(pt, target, 2, &p, NULL), EFI_SUCCESS);
	/* The device stops answering: the command times out, the channel is reset and set
	 * up again, and the next command works. */
	fake_virtio_lose_state(d);
	p = inquiry(cdb, data, 36);
	p.Timeout = 10000; /* 1 ms */
	EXPECT_STATUS(pt->PassThru(pt, target, 2, &p, NULL), EFI_TIMEOUT);
	EXPECT_EQ(p.HostAdapterStatus, EFI_EXT_SCSI_STATUS_HOST_ADAPTER_TIMEOUT_COMMAND);
	p = inquiry(cdb, data, 36);
	EXPECT_STATUS(pt->PassThru(pt, target, 2, &p, NULL), EFI_SUCCESS);
	virtio_check_no_errors(d);
	virtio_check_disconnect(d);
	virtio_check_clean(d);
	fake_virtio_scsi_destroy(d);
}

TEST(virtio_scsi_exit_boot_services)
{
	struct fake_virtio *d = fake_virtio_scsi_create(FAKE_VIRTIO_MODERN);
	struct fake_virtio_scsi *v = fake_virtio_scsi(d);

	ASSERT(pass_thru(d) != NULL);
	virtio_check_exit_boot_services(d);
	fake_scsi_free(&v->scsi);
	free(v);
}
