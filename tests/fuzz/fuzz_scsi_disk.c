/* Fuzzes the SCSI bus and disk drivers (drivers/scsi/) against a channel that answers
 * whatever the input says: each command the drivers send takes its outcome from the input
 * (success, CHECK CONDITION with sense bytes, busy, a shorter transfer, a timeout, a host
 * adapter failure) and the bytes the device returns, lengths included, as a hostile or
 * broken third-party pass-thru might. When the input is used up every command fails. The
 * drivers must neither overrun a buffer nor loop, and a disk they publish must have a
 * usable block size; then it is read, written and flushed, and everything is stopped. */
#include "fuzz.h"
#include "../unit/support/test_platform.h"
#include <stdlib.h>
#include <string.h>

#include <efi/protocol/block_io.h>
#include <efi/protocol/ext_scsi_pass_thru.h>
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/driver.h>
#include <ember/lib/guids.h>

struct script {
	const uint8_t *data;
	size_t size, at;
	size_t commands;
};

static struct script script;
static EFI_EXT_SCSI_PASS_THRU_MODE mode = {
    7, EFI_EXT_SCSI_PASS_THRU_ATTRIBUTES_PHYSICAL | EFI_EXT_SCSI_PASS_THRU_ATTRIBUTES_LOGICAL, 4};

static uint8_t next(void)
{
	return script.at < script.size ? script.data[script.at++] : 0;
}

static void check(int ok)
{
	if (!ok)
		abort();
}

/* The device's bytes into a buffer of room bytes: a length byte (255: all the room), then
 * the bytes (missing ones read as zero). Returns how many it "sent", which may be more than room
 * (the lie is the point) though only room are written. */
static UINT32 answer(void *buffer, UINT32 room)
{
	UINT32 len = next(), copied;

	if (len == 255)
		len = room;
	copied = len < room ? len : room;

	/* All len bytes are taken from the input, so that an answer ends where it says. */
	for (UINT32 i = 0; i < len; i++) {
		uint8_t byte = next();

		if (i < copied)
			((uint8_t *)buffer)[i] = byte;
	}
	return len;
}

static EFI_STATUS EFIAPI pass_thru(EFI_EXT_SCSI_PASS_THRU_PROTOCOL *this, UINT8 *target, UINT64 lun,
				   EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET *p, EFI_EVENT event)
{
	uint8_t outcome = script.at < script.size ? next() : 0xff;

	check(p && p->Cdb && p->CdbLength && ++script.commands < 100000);
	switch (outcome % 6) {
	case 0:
		p->TargetStatus = 0;
		p->InTransferLength = answer(p->InDataBuffer, p->InTransferLength);
		return EFI_SUCCESS;
	case 1:
		p->TargetStatus = 2;
		p->SenseDataLength = (UINT8)answer(p->SenseData, p->SenseDataLength);
		return EFI_DEVICE_ERROR;
	case 2:
		p->TargetStatus = 8;
		return EFI_DEVICE_ERROR;
	case 3:
		p->InTransferLength = answer(p->InDataBuffer, 0);
		p->OutTransferLength = p->InTransferLength;
		return EFI_BAD_BUFFER_SIZE;
	case 4:
		p->HostAdapterStatus = EFI_EXT_SCSI_STATUS_HOST_ADAPTER_SELECTION_TIMEOUT;
		return EFI_TIMEOUT;
	default:
		p->HostAdapterStatus = EFI_EXT_SCSI_STATUS_HOST_ADAPTER_OTHER;
		return EFI_DEVICE_ERROR;
	}
}

static EFI_STATUS EFIAPI next_target(EFI_EXT_SCSI_PASS_THRU_PROTOCOL *this, UINT8 **target)
{
	if ((*target)[0] != 0xff)
		return EFI_NOT_FOUND; /* one target: 0 */
	memset(*target, 0, TARGET_MAX_BYTES);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI build_path(EFI_EXT_SCSI_PASS_THRU_PROTOCOL *this, UINT8 *target,
				    UINT64 lun, EFI_DEVICE_PATH_PROTOCOL **path)
{
	SCSI_DEVICE_PATH *node = (SCSI_DEVICE_PATH *)dp_create_node(
	    MESSAGING_DEVICE_PATH, MSG_SCSI_DP, sizeof(SCSI_DEVICE_PATH));

	node->Pun = target[0];
	node->Lun = (UINT16)lun;
	*path = &node->Header;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI unsupported(void)
{
	return EFI_UNSUPPORTED;
}

static EFI_EXT_SCSI_PASS_THRU_PROTOCOL protocol = {
    &mode,
    pass_thru,
    (EFI_EXT_SCSI_PASS_THRU_GET_NEXT_TARGET_LUN)unsupported,
    build_path,
    (EFI_EXT_SCSI_PASS_THRU_GET_TARGET_LUN)unsupported,
    (EFI_EXT_SCSI_PASS_THRU_RESET_CHANNEL)unsupported,
    (EFI_EXT_SCSI_PASS_THRU_RESET_TARGET_LUN)unsupported,
    next_target,
};

static EFI_DEVICE_PATH_PROTOCOL *channel_path;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	test_platform_init();
	driver_install_builtin();
	channel_path = dp_from_text(u"PciRoot(0x0)/Pci(0x3,0x0)");
	return 0;
}

/* Reads, writes and flushes what the drivers published on a child. */
static void use_disk(EFI_HANDLE child)
{
	static UINT8 buffer[65536] __attribute__((aligned(64)));
	EFI_BLOCK_IO_PROTOCOL *bio;
	EFI_BLOCK_IO_MEDIA *m;

	driver_connect(child, NULL, NULL, false);
	if (EFI_ERROR(protocol_get(child, &efi_block_io_protocol_guid, (void **)&bio)))
		return;
	m = bio->Media;
	check(m->BlockSize >= 512 && m->BlockSize <= 65536 && !(m->BlockSize & (m->BlockSize - 1)));
	if (!m->MediaPresent)
		m->LastBlock = m->LastBlock; /* a removable drive without a disc */
	bio->ReadBlocks(bio, m->MediaId, 0, m->BlockSize, buffer);
	bio->ReadBlocks(bio, m->MediaId, m->LastBlock, m->BlockSize, buffer);
	bio->WriteBlocks(bio, m->MediaId, 0,
			 m->BlockSize * 2 <= sizeof(buffer) ? m->BlockSize * 2 : m->BlockSize,
			 buffer);
	bio->FlushBlocks(bio);
	bio->Reset(bio, TRUE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	EFI_HANDLE handle = NULL, *children = NULL;
	UINTN count = 0;

	script = (struct script){data, size, 0, 0};
	mode.IoAlign = 1u << (size ? data[0] % 8 : 0);
	script.at = 1;
	protocol_install_multiple(&handle, &efi_device_path_protocol_guid, channel_path,
				  &efi_ext_scsi_pass_thru_protocol_guid, &protocol, NULL);
	driver_connect(handle, NULL, NULL, false);
	if (!EFI_ERROR(handle_locate_buffer(ByProtocol, &efi_scsi_io_protocol_guid, NULL, &count,
					    &children))) {
		for (UINTN i = 0; i < count; i++)
			use_disk(children[i]);
		pool_free(children);
	}
	check(!EFI_ERROR(driver_disconnect(handle, NULL, NULL)));
	protocol_uninstall_multiple(handle, &efi_device_path_protocol_guid, channel_path,
				    &efi_ext_scsi_pass_thru_protocol_guid, &protocol, NULL);
	return 0;
}
