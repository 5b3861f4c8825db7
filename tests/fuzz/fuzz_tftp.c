/* Fuzzes the TFTP client (net/tftp_client.c) with a server's packets: the input is a run of
 * records (two bytes of length, then the packet; the top bit of the length marks a timeout
 * instead). Delivered data must lie inside the packet given, agree with tsize and the
 * block size, and what the client sends must fit its buffer. */
#include "fuzz.h"
#include <stdlib.h>

#include <ember/net/tftp.h>

static void check(const struct tftp_client *c, enum tftp_event ev, const uint8_t *p, size_t len)
{
	if (c->out_len > TFTP_OUT_MAX || c->blksize < 8 || c->blksize > TFTP_WANTED_BLKSIZE)
		abort();
	if (ev != TFTP_EV_DATA && ev != TFTP_EV_DONE)
		return;
	if (c->data < p + 4 || c->data + c->data_len > p + len || c->data_len > c->blksize)
		abort();
	if (c->has_tsize && c->offset + c->data_len > c->tsize)
		abort();
	if (ev == TFTP_EV_DATA && c->data_len != c->blksize)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tftp_client c;
	size_t at = 0;

	if (!tftp_client_start(&c, "boot.efi"))
		abort();
	while (at + 2 <= size) {
		uint16_t len = net_get16(data + at);
		enum tftp_event ev;

		at += 2;
		if (len & 0x8000) {
			tftp_client_timeout(&c, 4);
			continue;
		}
		if (len > size - at)
			len = (uint16_t)(size - at);
		/* Port 1000 most of the time; the low bit of the length picks another. */
		ev = tftp_client_input(&c, (len & 1) && len > 600 ? 1001 : 1000, data + at, len);
		check(&c, ev, data + at, len);
		at += len;
	}
	return 0;
}
