/* The EXT_SCSI_PASS_THRU front end (include/ember/drivers/scsi_pass_thru.h): argument checks,
 * target and LUN enumeration and device path nodes for every SCSI transport. */
#define LOG_PREFIX "scsi-pt: "
#include <ember/drivers/scsi_pass_thru.h>
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/log.h>
#include <ember/lib/devpath_node.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

/* A target number from the spec's 16 bytes; false when it is not one of ours. */
static bool decode_target(const struct scsi_pass_thru *pt, const UINT8 *target, UINT16 *number)
{
	for (UINTN i = 2; i < TARGET_MAX_BYTES; i++)
		if (target[i])
			return false;
	*number = (UINT16)(target[0] | target[1] << 8);
	return *number <= pt->max_target;
}

static void encode_target(UINT8 *target, UINT16 number)
{
	mem_set(target, 0, TARGET_MAX_BYTES);
	target[0] = (UINT8)number;
	target[1] = (UINT8)(number >> 8);
}

static bool all_ff(const UINT8 *target)
{
	for (UINTN i = 0; i < TARGET_MAX_BYTES; i++)
		if (target[i] != 0xff)
			return false;
	return true;
}

static struct scsi_pass_thru *to_pt(EFI_EXT_SCSI_PASS_THRU_PROTOCOL *this)
{
	return scsi_pass_thru_from_protocol(this);
}

struct scsi_pass_thru *scsi_pass_thru_from_protocol(EFI_EXT_SCSI_PASS_THRU_PROTOCOL *protocol)
{
	struct scsi_pass_thru *pt;

	if (!protocol)
		return NULL;
	pt = container_of(protocol, struct scsi_pass_thru, protocol);
	return pt->signature == SCSI_PASS_THRU_SIGNATURE ? pt : NULL;
}

static bool aligned(const struct scsi_pass_thru *pt, const void *buffer)
{
	UINT32 align = pt->mode.IoAlign;

	return align <= 1 || !buffer || ((UINTN)buffer & (align - 1)) == 0;
}

/* The buffers a direction uses are there and aligned; the other direction's length is 0. */
static EFI_STATUS check_buffers(struct scsi_pass_thru *pt,
				EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET *p)
{
	UINT8 dir = p->DataDirection;
	bool in = dir != EFI_EXT_SCSI_DATA_DIRECTION_WRITE;
	bool out = dir != EFI_EXT_SCSI_DATA_DIRECTION_READ;

	if (!in)
		p->InTransferLength = 0;
	if (!out)
		p->OutTransferLength = 0;
	if ((p->InTransferLength && !p->InDataBuffer) ||
	    (p->OutTransferLength && !p->OutDataBuffer) || (p->SenseDataLength && !p->SenseData))
		return EFI_INVALID_PARAMETER;
	if (!aligned(pt, p->InTransferLength ? p->InDataBuffer : NULL) ||
	    !aligned(pt, p->OutTransferLength ? p->OutDataBuffer : NULL) ||
	    !aligned(pt, p->SenseDataLength ? p->SenseData : NULL))
		return EFI_INVALID_PARAMETER;
	return EFI_SUCCESS;
}

/* Too long a transfer: the packet says how much one command can move. */
static EFI_STATUS check_lengths(struct scsi_pass_thru *pt,
				EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET *p)
{
	if (p->InTransferLength <= pt->max_transfer && p->OutTransferLength <= pt->max_transfer)
		return EFI_SUCCESS;
	p->InTransferLength = MIN(p->InTransferLength, pt->max_transfer);
	p->OutTransferLength = MIN(p->OutTransferLength, pt->max_transfer);
	return EFI_BAD_BUFFER_SIZE;
}

EFI_STATUS scsi_pass_thru_check(struct scsi_pass_thru *pt, const UINT8 *target, UINT64 lun,
				EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET *p)
{
	UINT16 number;
	EFI_STATUS status;

	if (!target || !p || !decode_target(pt, target, &number) || lun > pt->max_lun)
		return EFI_INVALID_PARAMETER;
	if (!p->Cdb || !p->CdbLength ||
	    p->DataDirection > EFI_EXT_SCSI_DATA_DIRECTION_BIDIRECTIONAL)
		return EFI_INVALID_PARAMETER;
	status = check_buffers(pt, p);
	if (EFI_ERROR(status))
		return status;
	if (p->CdbLength > pt->max_cdb ||
	    (p->DataDirection == EFI_EXT_SCSI_DATA_DIRECTION_BIDIRECTIONAL && !pt->bidirectional))
		return EFI_UNSUPPORTED;
	return check_lengths(pt, p);
}

static EFI_STATUS EFIAPI pt_pass_thru(EFI_EXT_SCSI_PASS_THRU_PROTOCOL *this, UINT8 *target,
				      UINT64 lun,
				      EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET *packet,
				      EFI_EVENT event)
{
	struct scsi_pass_thru *pt = to_pt(this);
	EFI_STATUS status;
	EFI_TPL old;

	if (!pt)
		return EFI_INVALID_PARAMETER;
	status = scsi_pass_thru_check(pt, target, lun, packet);
	if (EFI_ERROR(status))
		return status;
	/* Blocking only (no NONBLOCKIO attribute): the event is ignored, as 15.7 says. The
	 * transport's one set of request buffers is not shared with a callback meanwhile. */
	old = tpl_raise(TPL_CALLBACK);
	status = pt->ops->execute(pt, (UINT16)(target[0] | target[1] << 8), (UINT16)lun, packet);
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI pt_get_next_target_lun(EFI_EXT_SCSI_PASS_THRU_PROTOCOL *this,
						UINT8 **target, UINT64 *lun)
{
	struct scsi_pass_thru *pt = to_pt(this);
	UINT16 number;

	if (!pt || !target || !*target || !lun)
		return EFI_INVALID_PARAMETER;
	if (all_ff(*target)) {
		encode_target(*target, 0);
		*lun = 0;
		return EFI_SUCCESS;
	}
	if (!decode_target(pt, *target, &number) || *lun > pt->max_lun)
		return EFI_INVALID_PARAMETER;
	if (*lun < pt->max_lun) {
		(*lun)++;
		return EFI_SUCCESS;
	}
	if (number == pt->max_target)
		return EFI_NOT_FOUND;
	encode_target(*target, (UINT16)(number + 1));
	*lun = 0;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI pt_get_next_target(EFI_EXT_SCSI_PASS_THRU_PROTOCOL *this, UINT8 **target)
{
	struct scsi_pass_thru *pt = to_pt(this);
	UINT16 number;

	if (!pt || !target || !*target)
		return EFI_INVALID_PARAMETER;
	if (all_ff(*target)) {
		encode_target(*target, 0);
		return EFI_SUCCESS;
	}
	if (!decode_target(pt, *target, &number))
		return EFI_INVALID_PARAMETER;
	if (number == pt->max_target)
		return EFI_NOT_FOUND;
	encode_target(*target, (UINT16)(number + 1));
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI pt_build_device_path(EFI_EXT_SCSI_PASS_THRU_PROTOCOL *this, UINT8 *target,
					      UINT64 lun, EFI_DEVICE_PATH_PROTOCOL **path)
{
	struct scsi_pass_thru *pt = to_pt(this);
	SCSI_DEVICE_PATH *node;
	UINT16 number;

	if (!pt || !target || !path)
		return EFI_INVALID_PARAMETER;
	if (!decode_target(pt, target, &number) || lun > pt->max_lun)
		return EFI_NOT_FOUND;
	node =
	    (SCSI_DEVICE_PATH *)dp_create_node(MESSAGING_DEVICE_PATH, MSG_SCSI_DP, sizeof(*node));
	if (!node)
		return EFI_OUT_OF_RESOURCES;
	node->Pun = number;
	node->Lun = (UINT16)lun;
	*path = &node->Header;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI pt_get_target_lun(EFI_EXT_SCSI_PASS_THRU_PROTOCOL *this,
					   EFI_DEVICE_PATH_PROTOCOL *path, UINT8 **target,
					   UINT64 *lun)
{
	struct scsi_pass_thru *pt = to_pt(this);
	SCSI_DEVICE_PATH node;

	if (!pt || !path || !target || !*target || !lun)
		return EFI_INVALID_PARAMETER;
	if (path->Type != MESSAGING_DEVICE_PATH || path->SubType != MSG_SCSI_DP ||
	    dp_node_length(path) != sizeof(node))
		return EFI_UNSUPPORTED;
	mem_copy(&node, path, sizeof(node));
	if (node.Pun > pt->max_target || node.Lun > pt->max_lun)
		return EFI_NOT_FOUND;
	encode_target(*target, node.Pun);
	*lun = node.Lun;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI pt_reset_channel(EFI_EXT_SCSI_PASS_THRU_PROTOCOL *this)
{
	struct scsi_pass_thru *pt = to_pt(this);
	EFI_TPL old;
	EFI_STATUS status;

	if (!pt)
		return EFI_INVALID_PARAMETER;
	if (!pt->ops->reset_channel)
		return EFI_UNSUPPORTED;
	old = tpl_raise(TPL_CALLBACK);
	status = pt->ops->reset_channel(pt);
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI pt_reset_target_lun(EFI_EXT_SCSI_PASS_THRU_PROTOCOL *this, UINT8 *target,
					     UINT64 lun)
{
	struct scsi_pass_thru *pt = to_pt(this);
	UINT16 number;
	EFI_TPL old;
	EFI_STATUS status;

	if (!pt || !target || !decode_target(pt, target, &number) || lun > pt->max_lun)
		return EFI_INVALID_PARAMETER;
	if (!pt->ops->reset_target_lun)
		return EFI_UNSUPPORTED;
	old = tpl_raise(TPL_CALLBACK);
	status = pt->ops->reset_target_lun(pt, number, (UINT16)lun);
	tpl_restore(old);
	return status;
}

void scsi_pass_thru_init(struct scsi_pass_thru *pt, const struct scsi_pass_thru_ops *ops)
{
	mem_set(pt, 0, sizeof(*pt));
	pt->signature = SCSI_PASS_THRU_SIGNATURE;
	pt->ops = ops;
	pt->protocol = (EFI_EXT_SCSI_PASS_THRU_PROTOCOL){
	    .Mode = &pt->mode,
	    .PassThru = pt_pass_thru,
	    .GetNextTargetLun = pt_get_next_target_lun,
	    .BuildDevicePath = pt_build_device_path,
	    .GetTargetLun = pt_get_target_lun,
	    .ResetChannel = pt_reset_channel,
	    .ResetTargetLun = pt_reset_target_lun,
	    .GetNextTarget = pt_get_next_target,
	};
	/* Not a RAID controller: both bits, as 15.7.1 asks of a plain channel. */
	pt->mode.Attributes =
	    EFI_EXT_SCSI_PASS_THRU_ATTRIBUTES_PHYSICAL | EFI_EXT_SCSI_PASS_THRU_ATTRIBUTES_LOGICAL;
}
