/* The PXE driver's TFTP read: the client of net/tftp_client.c over the link, with the
 * caller's buffer as the sink and LoadFile's size protocol. */
#define LOG_PREFIX "pxe: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <ember/net/tftp.h>
#include "pxe.h"

#define TFTP_TRIES 6
#define TFTP_WAIT_NS 1000000000ull

/* Where the data goes: the caller's buffer while it fits, counted beyond it. */
struct pxe_sink {
	uint8_t *buffer;
	UINTN size;
	UINT64 total;
	UINT64 shown; /* the progress last shown, bytes */
};

#define PXE_PROGRESS_STEP (1024 * 1024)

static EFI_STATUS pxe_tftp_send(struct pxe_dev *d, struct tftp_client *c, uint32_t server,
				uint16_t port)
{
	c->send = false;
	mem_copy(pxe_tx_payload(d), c->out, c->out_len);
	return pxe_send_udp(d, server, port, c->server_port ? c->server_port : TFTP_PORT,
			    c->out_len);
}

static void pxe_store(struct pxe_sink *s, const struct tftp_client *c)
{
	UINT64 end = c->offset + c->data_len;

	if (s->buffer && end <= s->size)
		mem_copy(s->buffer + c->offset, c->data, c->data_len);
	s->total = end;
	/* Long downloads show how far they are, once a MiB. */
	if (s->buffer && end - s->shown >= PXE_PROGRESS_STEP) {
		pxe_say("\r  %llu KiB", (unsigned long long)(end / 1024));
		s->shown = end;
	}
}

static EFI_STATUS pxe_tftp_status(const struct tftp_client *c)
{
	log_debug("TFTP failed: error %u, %s\n", c->error_code, c->error);
	switch (c->error_code) {
	case 1:
		return EFI_NOT_FOUND;
	case 2:
		return EFI_ACCESS_DENIED;
	}
	return str8_cmp(c->error, "timed out") == 0 ? EFI_TIMEOUT : EFI_TFTP_ERROR;
}

/* One step of the transfer: an answer taken in, or a timeout. Returns EFI_NOT_READY while
 * the transfer goes on. */
static EFI_STATUS pxe_tftp_step(struct pxe_dev *d, struct tftp_client *c, uint32_t server,
				uint16_t port, struct pxe_sink *s)
{
	struct udp_datagram u;
	uint32_t from;
	enum tftp_event ev;

	if (!pxe_wait_udp(d, port, core_time_ns() + TFTP_WAIT_NS, &u, &from)) {
		if (!tftp_client_timeout(c, TFTP_TRIES))
			return EFI_TIMEOUT;
		return EFI_NOT_READY;
	}
	if (from != server)
		return EFI_NOT_READY;
	ev = tftp_client_input(c, u.src_port, u.payload, u.len);
	if (ev == TFTP_EV_OPTIONS)
		log_debug("TFTP options: blksize %u, tsize %llu\n", c->blksize,
			  (unsigned long long)c->tsize);
	if (ev == TFTP_EV_OPTIONS && c->has_tsize && c->tsize > s->size) {
		/* LoadFile's size protocol: say the size, without reading the file. */
		s->total = c->tsize;
		tftp_client_abort(c, 3, "buffer too small");
		return EFI_BUFFER_TOO_SMALL;
	}
	if (ev == TFTP_EV_DATA || ev == TFTP_EV_DONE)
		pxe_store(s, c);
	if (ev == TFTP_EV_DONE)
		return s->total > s->size ? EFI_BUFFER_TOO_SMALL : EFI_SUCCESS;
	return ev == TFTP_EV_FAILED ? EFI_TFTP_ERROR : EFI_NOT_READY;
}

EFI_STATUS pxe_tftp_read(struct pxe_dev *d, uint32_t server, const char *name, void *buffer,
			 UINTN *size)
{
	return pxe_tftp_read_sized(d, server, name, TFTP_WANTED_BLKSIZE, buffer, size);
}

EFI_STATUS pxe_tftp_read_sized(struct pxe_dev *d, uint32_t server, const char *name,
			       uint16_t blksize, void *buffer, UINTN *size)
{
	struct tftp_client *c = pool_alloc(sizeof(*c));
	struct pxe_sink s = {buffer, buffer ? *size : 0, 0, 0};
	uint16_t port = pxe_new_port(d);
	EFI_STATUS status = EFI_NOT_READY;

	if (!c)
		return EFI_OUT_OF_RESOURCES;
	if (!tftp_client_start_sized(c, name, blksize)) {
		log_debug("boot file name \"%s\" cannot be asked for\n", name);
		pool_free(c);
		return EFI_NOT_FOUND;
	}
	while (status == EFI_NOT_READY) {
		if (c->send && EFI_ERROR(status = pxe_tftp_send(d, c, server, port)))
			break;
		status = pxe_tftp_step(d, c, server, port, &s);
	}
	/* A final ACK, or the ERROR that tells the server we gave up. */
	if (c->send)
		pxe_tftp_send(d, c, server, port);
	if (status == EFI_TFTP_ERROR || status == EFI_TIMEOUT)
		status = pxe_tftp_status(c);
	if (status == EFI_SUCCESS || status == EFI_BUFFER_TOO_SMALL)
		*size = (UINTN)s.total;
	if (s.shown)
		pxe_say("\r\n");
	pool_free(c);
	return status;
}
