/* The SCSI channel of the tests (fake_scsi_pass_thru.h). */
#include <stdlib.h>
#include <string.h>

#include "fake_scsi_pass_thru.h"
#include "block_dev.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/lib/guids.h>
#include <ember/lib/util.h>

#define MAX_TARGET 7
#define MAX_LUN 7

static struct fake_scsi_pt *to_pt(EFI_EXT_SCSI_PASS_THRU_PROTOCOL *this)
{
	return container_of(this, struct fake_scsi_pt, protocol);
}

static bool misaligned(struct fake_scsi_pt *pt, const void *p, UINT32 len)
{
	return len && ((UINTN)p & (pt->mode.IoAlign - 1));
}

static EFI_STATUS execute(struct fake_scsi_pt *pt, UINT8 target, UINT64 lun,
			  EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET *p)
{
	UINT8 sense[252];
	UINT32 sense_len = sizeof(sense), in_len = p->InTransferLength;
	UINT8 status = fake_scsi_execute(&pt->scsi, target, (UINT16)lun, p->Cdb, p->CdbLength,
					 p->OutDataBuffer, p->OutTransferLength, p->InDataBuffer,
					 &in_len, sense, &sense_len);

	if (status == FAKE_SCSI_NO_TARGET) {
		p->HostAdapterStatus = EFI_EXT_SCSI_STATUS_HOST_ADAPTER_SELECTION_TIMEOUT;
		p->InTransferLength = p->OutTransferLength = 0;
		p->SenseDataLength = 0;
		return EFI_TIMEOUT;
	}
	p->HostAdapterStatus = EFI_EXT_SCSI_STATUS_HOST_ADAPTER_OK;
	p->TargetStatus = status;
	p->InTransferLength = in_len;
	sense_len = MIN(sense_len, (UINT32)p->SenseDataLength);
	if (sense_len)
		memcpy(p->SenseData, sense, sense_len);
	p->SenseDataLength = (UINT8)sense_len;
	return status ? EFI_DEVICE_ERROR : EFI_SUCCESS;
}

static EFI_STATUS EFIAPI pt_pass_thru(EFI_EXT_SCSI_PASS_THRU_PROTOCOL *this, UINT8 *target,
				      UINT64 lun, EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET *p,
				      EFI_EVENT event)
{
	struct fake_scsi_pt *pt = to_pt(this);

	pt->pass_thrus++;
	if (!target || !p || target[0] > MAX_TARGET || lun > MAX_LUN || !p->Cdb)
		return EFI_INVALID_PARAMETER;
	if (misaligned(pt, p->InDataBuffer, p->InTransferLength) ||
	    misaligned(pt, p->OutDataBuffer, p->OutTransferLength) ||
	    misaligned(pt, p->SenseData, p->SenseDataLength)) {
		pt->misaligned++;
		return EFI_INVALID_PARAMETER;
	}
	if (p->InTransferLength > pt->max_transfer || p->OutTransferLength > pt->max_transfer) {
		p->InTransferLength = MIN(p->InTransferLength, pt->max_transfer);
		p->OutTransferLength = MIN(p->OutTransferLength, pt->max_transfer);
		return EFI_BAD_BUFFER_SIZE;
	}
	if (pt->busy_count) {
		pt->busy_count--;
		return EFI_NOT_READY;
	}
	return execute(pt, target[0], lun, p);
}

static EFI_STATUS EFIAPI pt_get_next_target_lun(EFI_EXT_SCSI_PASS_THRU_PROTOCOL *this,
						UINT8 **target, UINT64 *lun)
{
	return EFI_UNSUPPORTED; /* the bus driver walks targets, then asks each for LUNs */
}

static EFI_STATUS EFIAPI pt_get_next_target(EFI_EXT_SCSI_PASS_THRU_PROTOCOL *this, UINT8 **target)
{
	UINT8 *t = *target;

	if (t[0] == 0xff) {
		memset(t, 0, TARGET_MAX_BYTES);
		return EFI_SUCCESS;
	}
	if (t[0] >= MAX_TARGET)
		return EFI_NOT_FOUND;
	t[0]++;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI pt_build_device_path(EFI_EXT_SCSI_PASS_THRU_PROTOCOL *this, UINT8 *target,
					      UINT64 lun, EFI_DEVICE_PATH_PROTOCOL **path)
{
	SCSI_DEVICE_PATH *node;

	if (target[0] > MAX_TARGET || lun > MAX_LUN)
		return EFI_NOT_FOUND;
	node =
	    (SCSI_DEVICE_PATH *)dp_create_node(MESSAGING_DEVICE_PATH, MSG_SCSI_DP, sizeof(*node));
	node->Pun = target[0];
	node->Lun = (UINT16)lun;
	*path = &node->Header;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI pt_get_target_lun(EFI_EXT_SCSI_PASS_THRU_PROTOCOL *this,
					   EFI_DEVICE_PATH_PROTOCOL *path, UINT8 **target,
					   UINT64 *lun)
{
	SCSI_DEVICE_PATH *node = (SCSI_DEVICE_PATH *)path;

	if (path->Type != MESSAGING_DEVICE_PATH || path->SubType != MSG_SCSI_DP)
		return EFI_UNSUPPORTED;
	memset(*target, 0, TARGET_MAX_BYTES);
	(*target)[0] = (UINT8)node->Pun;
	*lun = node->Lun;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI pt_reset_channel(EFI_EXT_SCSI_PASS_THRU_PROTOCOL *this)
{
	to_pt(this)->channel_resets++;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI pt_reset_target_lun(EFI_EXT_SCSI_PASS_THRU_PROTOCOL *this, UINT8 *target,
					     UINT64 lun)
{
	to_pt(this)->lun_resets++;
	return EFI_SUCCESS;
}

struct fake_scsi_pt *fake_scsi_pt_create(void)
{
	struct fake_scsi_pt *pt = calloc(1, sizeof(*pt));

	test_install_builtin_drivers();
	pt->protocol = (EFI_EXT_SCSI_PASS_THRU_PROTOCOL){
	    &pt->mode,	       pt_pass_thru,	 pt_get_next_target_lun, pt_build_device_path,
	    pt_get_target_lun, pt_reset_channel, pt_reset_target_lun,	 pt_get_next_target,
	};
	pt->mode = (EFI_EXT_SCSI_PASS_THRU_MODE){7,
						 EFI_EXT_SCSI_PASS_THRU_ATTRIBUTES_PHYSICAL |
						     EFI_EXT_SCSI_PASS_THRU_ATTRIBUTES_LOGICAL,
						 4};
	pt->max_transfer = 1 << 20;
	pt->path = dp_from_text(u"PciRoot(0x0)/Pci(0x3,0x0)");
	protocol_install_multiple(&pt->handle, &efi_device_path_protocol_guid, pt->path,
				  &efi_ext_scsi_pass_thru_protocol_guid, &pt->protocol, NULL);
	return pt;
}

void fake_scsi_pt_destroy(struct fake_scsi_pt *pt)
{
	driver_disconnect(pt->handle, NULL, NULL);
	protocol_uninstall_multiple(pt->handle, &efi_device_path_protocol_guid, pt->path,
				    &efi_ext_scsi_pass_thru_protocol_guid, &pt->protocol, NULL);
	pool_free(pt->path);
	fake_scsi_free(&pt->scsi);
	free(pt);
}
