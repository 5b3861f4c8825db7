/* The fake virtio-scsi device (fake_virtio_scsi.h). */
#include <stdlib.h>
#include <string.h>

#include "fake_virtio_scsi.h"
#include "../../drivers/virtio/virtio_spec.h"
#include <ember/core/core.h>

#define CDB_SIZE 32
#define SENSE_SIZE 96
#define REQ_BYTES (19 + CDB_SIZE)
#define RESP_BYTES (12 + SENSE_SIZE)
#define S_OK 0
#define S_BAD_TARGET 3

struct fake_virtio_scsi *fake_virtio_scsi(struct fake_virtio *d)
{
	return d->backend;
}

static UINT32 tmf(struct fake_virtio *d, struct fake_virtio_chain *c)
{
	struct fake_virtio_scsi *v = d->backend;

	if (c->bad || c->count != 2 || c->bufs[0].writes || c->bufs[0].len != 24 ||
	    !c->bufs[1].writes || c->bufs[1].len < 1) {
		fake_virtio_error(d, "malformed task management request", c->count);
		return 0;
	}
	v->tmfs++;
	memcpy(v->last_lun, c->bufs[0].p + 8, 8);
	c->bufs[1].p[0] = S_OK;
	return 1;
}

/* Data of one direction gathered (out) or its room counted (in). */
static UINT32 total(const struct fake_virtio_buf *b, UINT16 n)
{
	UINT32 sum = 0;

	for (UINT16 i = 0; i < n; i++)
		sum += b[i].len;
	return sum;
}

static void scatter(struct fake_virtio_buf *b, UINT16 n, const UINT8 *data, UINT32 len)
{
	for (UINT16 i = 0; i < n && len; i++) {
		UINT32 part = b[i].len < len ? b[i].len : len;
		memcpy(b[i].p, data, part);
		data += part;
		len -= part;
	}
}

static void gather(const struct fake_virtio_buf *b, UINT16 n, UINT8 *data)
{
	for (UINT16 i = 0; i < n; i++) {
		memcpy(data, b[i].p, b[i].len);
		data += b[i].len;
	}
}

/* Runs the command on the model and fills the response. Returns the bytes of data in. */
static UINT32 run(struct fake_virtio *d, const UINT8 *req, UINT8 *resp, UINT8 *out, UINT32 out_len,
		  UINT8 *in, UINT32 in_room)
{
	struct fake_virtio_scsi *v = d->backend;
	UINT32 sense_len = SENSE_SIZE, in_len = in_room, residual;
	UINT8 status;

	if (req[0] != 1 || (req[2] & 0xc0) != 0x40)
		fake_virtio_error(d, "LUN field not in virtio's single-level format", req[0]);
	status =
	    fake_scsi_execute(&v->scsi, req[1], (UINT16)((req[2] & 0x3f) << 8 | req[3]), req + 19,
			      CDB_SIZE, out, out_len, in, &in_len, resp + 12, &sense_len);
	memcpy(v->last_lun, req, 8);
	memset(resp, 0, 12);
	if (status == FAKE_SCSI_NO_TARGET) {
		resp[11] = S_BAD_TARGET;
		return 0;
	}
	residual = (in_room ? in_room - in_len : 0) + v->extra_residual;
	memcpy(resp, &sense_len, 4);
	memcpy(resp + 4, &residual, 4);
	resp[10] = status;
	resp[11] = v->next_response;
	v->next_response = 0;
	return in_len;
}

static UINT32 request(struct fake_virtio *d, struct fake_virtio_chain *c)
{
	struct fake_virtio_scsi *v = d->backend;
	UINT16 resp = 1, n_out, n_in;
	UINT32 out_len, in_room, in_len;
	UINT8 *out, *in;

	while (resp < c->count && !c->bufs[resp].writes)
		resp++;
	if (c->bad || resp >= c->count || c->bufs[0].writes || c->bufs[0].len != REQ_BYTES ||
	    c->bufs[resp].len < RESP_BYTES) {
		fake_virtio_error(d, "malformed virtio-scsi request", c->count);
		return 0;
	}
	v->commands++;
	v->tpl = tpl_current();
	n_out = (UINT16)(resp - 1);
	n_in = (UINT16)(c->count - resp - 1);
	out_len = total(c->bufs + 1, n_out);
	in_room = total(c->bufs + resp + 1, n_in);
	out = malloc(out_len + 1);
	in = calloc(1, in_room + 1);
	gather(c->bufs + 1, n_out, out);
	in_len = run(d, c->bufs[0].p, c->bufs[resp].p, out, out_len, in, in_room);
	scatter(c->bufs + resp + 1, n_in, in, in_len);
	free(out);
	free(in);
	return RESP_BYTES + in_len;
}

static UINT32 serve(struct fake_virtio *d, UINT16 index, struct fake_virtio_chain *c)
{
	if (index == 0)
		return tmf(d, c);
	if (index == 2)
		return request(d, c);
	fake_virtio_error(d, "a chain on the event queue", index);
	return 0;
}

struct fake_virtio *fake_virtio_scsi_create(enum fake_virtio_interface interface)
{
	struct fake_virtio *d = fake_virtio_create(interface, FAKE_VIRTIO_ID_SCSI);

	if (!d)
		return NULL;
	d->backend = calloc(1, sizeof(struct fake_virtio_scsi));
	d->serve = serve;
	d->offered = VIRTIO_F_VERSION_1 | 1; /* VIRTIO_SCSI_F_INOUT */
	d->num_queues = 3;
	for (UINT16 i = 0; i < 3; i++)
		d->queues[i].max = 64;
	fake_virtio_set_config(d, 0, 4, 1);	 /* num_queues */
	fake_virtio_set_config(d, 4, 4, 64);	 /* seg_max */
	fake_virtio_set_config(d, 8, 4, 0xffff); /* max_sectors */
	fake_virtio_set_config(d, 12, 4, 128);	 /* cmd_per_lun */
	fake_virtio_set_config(d, 16, 4, 16);	 /* event_info_size */
	fake_virtio_set_config(d, 20, 4, SENSE_SIZE);
	fake_virtio_set_config(d, 24, 4, CDB_SIZE);
	fake_virtio_set_config(d, 30, 2, 255);	 /* max_target */
	fake_virtio_set_config(d, 32, 4, 16383); /* max_lun */
	return d;
}

void fake_virtio_scsi_destroy(struct fake_virtio *d)
{
	struct fake_virtio_scsi *v = d->backend;

	fake_virtio_destroy(d);
	fake_scsi_free(&v->scsi);
	free(v);
}
