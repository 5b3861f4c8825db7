/* virtio-scsi commands and task management (virtio 1.x, 5.6.6): a request header with the
 * CDB, data for the device, a response with status and sense, data for the driver; the
 * response translated into PassThru's statuses (UEFI 2.10, 15.7). */
#define LOG_PREFIX "virtio-scsi: "
#include "virtio_scsi.h"
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

#define TMF_TIMEOUT_US 10000000ULL

struct mapped {
	struct virtq_buf bufs[VIRTIO_SCSI_MAX_SEGMENTS];
	void *mappings[VIRTIO_SCSI_MAX_SEGMENTS];
	UINT16 count;
	UINT32 bytes; /* mapped of what was asked */
};

static struct virtio_scsi *to_vs(struct scsi_pass_thru *pt)
{
	return container_of(pt, struct virtio_scsi, pt);
}

/* The LUN field (5.6.6.1): 1, the target, then the LUN in the flat space. */
static void put_lun(UINT8 lun[8], UINT16 target, UINT16 number)
{
	mem_set(lun, 0, 8);
	lun[0] = 1;
	lun[1] = (UINT8)target;
	lun[2] = (UINT8)(0x40 | number >> 8);
	lun[3] = (UINT8)number;
}

static void unmap_all(struct virtio_scsi *s, struct mapped *m)
{
	for (UINT16 i = 0; i < m->count; i++)
		s->dev->ops->unmap(s->dev, m->mappings[i]);
	m->count = 0;
}

/* Maps a caller's buffer in as many segments as the mappings need, up to the limit;
 * m->bytes says how much was covered. */
static EFI_STATUS map_buffer(struct virtio_scsi *s, bool device_writes, UINT8 *p, UINT32 bytes,
			     struct mapped *m)
{
	m->count = 0;
	m->bytes = 0;
	while (m->bytes < bytes && m->count < s->segments) {
		UINTN len = bytes - m->bytes;
		UINT64 addr;
		EFI_STATUS status = s->dev->ops->map(s->dev, device_writes, p + m->bytes, &len,
						     &addr, &m->mappings[m->count]);

		if (EFI_ERROR(status)) {
			unmap_all(s, m);
			return status;
		}
		m->bufs[m->count++] = (struct virtq_buf){addr, (UINT32)len, device_writes};
		m->bytes += (UINT32)len;
	}
	return EFI_SUCCESS;
}

static void fill_request(struct virtio_scsi *s, UINT16 target, UINT16 lun,
			 const EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET *p)
{
	struct virtio_scsi_req_head *h = (void *)(s->shared + VIRTIO_SCSI_REQ_AT);

	mem_set(h, 0, sizeof(*h) + s->cdb_size);
	put_lun(h->lun, target, lun);
	h->id = ++s->next_id;
	mem_copy(h + 1, p->Cdb, p->CdbLength);
	mem_set(s->shared + VIRTIO_SCSI_RESP_AT, 0,
		sizeof(struct virtio_scsi_resp_head) + s->sense_size);
}

/* The chain: request, data out, response, data in (readable buffers first, 2.7.4). */
static UINT16 build_chain(struct virtio_scsi *s, struct virtq_buf *bufs, const struct mapped *out,
			  const struct mapped *in)
{
	UINT16 n = 0;

	bufs[n++] =
	    (struct virtq_buf){s->shared_addr + VIRTIO_SCSI_REQ_AT,
			       (UINT32)sizeof(struct virtio_scsi_req_head) + s->cdb_size, false};
	for (UINT16 i = 0; i < out->count; i++)
		bufs[n++] = out->bufs[i];
	bufs[n++] =
	    (struct virtq_buf){s->shared_addr + VIRTIO_SCSI_RESP_AT,
			       (UINT32)sizeof(struct virtio_scsi_resp_head) + s->sense_size, true};
	for (UINT16 i = 0; i < in->count; i++)
		bufs[n++] = in->bufs[i];
	return n;
}

/* The device's response as PassThru reports it. */
static EFI_STATUS response_status(UINT8 response, EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET *p)
{
	switch (response) {
	case VIRTIO_SCSI_S_OK:
		p->HostAdapterStatus = EFI_EXT_SCSI_STATUS_HOST_ADAPTER_OK;
		return p->TargetStatus == EFI_EXT_SCSI_STATUS_TARGET_GOOD ||
			       p->TargetStatus == EFI_EXT_SCSI_STATUS_TARGET_CONDITION_MET
			   ? EFI_SUCCESS
			   : EFI_DEVICE_ERROR;
	case VIRTIO_SCSI_S_OVERRUN:
		p->HostAdapterStatus = EFI_EXT_SCSI_STATUS_HOST_ADAPTER_DATA_OVERRUN_UNDERRUN;
		return EFI_BAD_BUFFER_SIZE;
	case VIRTIO_SCSI_S_BAD_TARGET:
		p->HostAdapterStatus = EFI_EXT_SCSI_STATUS_HOST_ADAPTER_SELECTION_TIMEOUT;
		return EFI_DEVICE_ERROR;
	case VIRTIO_SCSI_S_RESET:
		p->HostAdapterStatus = EFI_EXT_SCSI_STATUS_HOST_ADAPTER_BUS_RESET;
		return EFI_DEVICE_ERROR;
	case VIRTIO_SCSI_S_BUSY:
		p->HostAdapterStatus = EFI_EXT_SCSI_STATUS_HOST_ADAPTER_OTHER;
		return EFI_NOT_READY;
	default:
		p->HostAdapterStatus = EFI_EXT_SCSI_STATUS_HOST_ADAPTER_OTHER;
		return EFI_DEVICE_ERROR;
	}
}

/* Status, residual and sense from the response, bounded by what both sides hold. */
static EFI_STATUS read_response(struct virtio_scsi *s,
				EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET *p)
{
	struct virtio_scsi_resp_head r;
	UINT32 sense;

	mem_copy(&r, s->shared + VIRTIO_SCSI_RESP_AT, sizeof(r));
	p->TargetStatus = r.status;
	sense = MIN(MIN(r.sense_len, s->sense_size), (UINT32)p->SenseDataLength);
	if (sense)
		mem_copy(p->SenseData, s->shared + VIRTIO_SCSI_RESP_AT + sizeof(r), sense);
	p->SenseDataLength = (UINT8)sense;
	/* The residual is of data-in when there is any (bidirectional too), else data-out. */
	if (p->InTransferLength)
		p->InTransferLength -= MIN(r.residual, p->InTransferLength);
	else
		p->OutTransferLength -= MIN(r.residual, p->OutTransferLength);
	return response_status(r.response, p);
}

static EFI_STATUS fail(EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET *p, UINT8 host, EFI_STATUS status)
{
	p->HostAdapterStatus = host;
	p->TargetStatus = EFI_EXT_SCSI_STATUS_TARGET_GOOD;
	p->SenseDataLength = 0;
	p->InTransferLength = 0;
	p->OutTransferLength = 0;
	return status;
}

/* Both directions mapped whole, or EFI_BAD_BUFFER_SIZE with the lengths that would be. */
static EFI_STATUS map_data(struct virtio_scsi *s, EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET *p,
			   struct mapped *out, struct mapped *in)
{
	EFI_STATUS status = map_buffer(s, false, p->OutDataBuffer, p->OutTransferLength, out);

	if (EFI_ERROR(status))
		return status;
	status = map_buffer(s, true, p->InDataBuffer, p->InTransferLength, in);
	if (EFI_ERROR(status)) {
		unmap_all(s, out);
		return status;
	}
	if (out->bytes == p->OutTransferLength && in->bytes == p->InTransferLength)
		return EFI_SUCCESS;
	p->OutTransferLength = out->bytes;
	p->InTransferLength = in->bytes;
	unmap_all(s, in);
	unmap_all(s, out);
	return EFI_BAD_BUFFER_SIZE;
}

static EFI_STATUS vs_execute(struct scsi_pass_thru *pt, UINT16 target, UINT16 lun,
			     EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET *p)
{
	struct virtio_scsi *s = to_vs(pt);
	struct virtq_buf bufs[2 * VIRTIO_SCSI_MAX_SEGMENTS + 2];
	struct mapped out, in;
	EFI_STATUS status;

	if (s->broken)
		return fail(p, EFI_EXT_SCSI_STATUS_HOST_ADAPTER_OTHER, EFI_DEVICE_ERROR);
	status = map_data(s, p, &out, &in);
	if (status == EFI_BAD_BUFFER_SIZE)
		return status;
	if (EFI_ERROR(status))
		return fail(p, EFI_EXT_SCSI_STATUS_HOST_ADAPTER_OTHER, EFI_DEVICE_ERROR);
	fill_request(s, target, lun, p);
	/* Timeout is in 100 ns units; a part of a microsecond still waits one. */
	status = virtio_scsi_run(s, &s->request, bufs, build_chain(s, bufs, &out, &in),
				 p->Timeout ? (p->Timeout + 9) / 10 : 0);
	unmap_all(s, &in);
	unmap_all(s, &out);
	if (status == EFI_TIMEOUT)
		return fail(p, EFI_EXT_SCSI_STATUS_HOST_ADAPTER_TIMEOUT_COMMAND, EFI_TIMEOUT);
	if (EFI_ERROR(status))
		return fail(p, EFI_EXT_SCSI_STATUS_HOST_ADAPTER_OTHER, EFI_DEVICE_ERROR);
	return read_response(s, p);
}

static EFI_STATUS vs_reset_channel(struct scsi_pass_thru *pt)
{
	return EFI_ERROR(virtio_scsi_restart(to_vs(pt))) ? EFI_DEVICE_ERROR : EFI_SUCCESS;
}

/* LOGICAL UNIT RESET on the control queue. */
static EFI_STATUS vs_reset_target_lun(struct scsi_pass_thru *pt, UINT16 target, UINT16 lun)
{
	struct virtio_scsi *s = to_vs(pt);
	struct virtio_scsi_tmf_req *req = (void *)(s->shared + VIRTIO_SCSI_TMF_AT);
	volatile UINT8 *response = s->shared + VIRTIO_SCSI_TMF_RESP_AT;
	struct virtq_buf bufs[2] = {
	    {s->shared_addr + VIRTIO_SCSI_TMF_AT, sizeof(*req), false},
	    {s->shared_addr + VIRTIO_SCSI_TMF_RESP_AT, 1, true},
	};
	EFI_STATUS status;

	if (s->broken)
		return EFI_DEVICE_ERROR;
	mem_set(req, 0, sizeof(*req));
	req->type = VIRTIO_SCSI_T_TMF;
	req->subtype = VIRTIO_SCSI_T_TMF_LOGICAL_UNIT_RESET;
	put_lun(req->lun, target, lun);
	req->id = ++s->next_id;
	*response = 0xff;
	status = virtio_scsi_run(s, &s->control, bufs, 2, TMF_TIMEOUT_US);
	if (EFI_ERROR(status))
		return status;
	switch (*response) {
	case VIRTIO_SCSI_S_OK: /* FUNCTION COMPLETE */
	case VIRTIO_SCSI_S_FUNCTION_SUCCEEDED:
		return EFI_SUCCESS;
	case VIRTIO_SCSI_S_FUNCTION_REJECTED:
		return EFI_UNSUPPORTED;
	default:
		log_debug("LUN reset of %u:%u: response %u\n", target, lun, *response);
		return EFI_DEVICE_ERROR;
	}
}

const struct scsi_pass_thru_ops virtio_scsi_ops = {
    .execute = vs_execute,
    .reset_channel = vs_reset_channel,
    .reset_target_lun = vs_reset_target_lun,
};
