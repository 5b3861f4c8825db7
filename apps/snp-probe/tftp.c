/* The first block of a file from the user network's TFTP server (ember-run --net
 * user,tftp=DIR), RFC 1350: a read request to 10.0.2.2 port 69, DATA block 1 back (from
 * whatever port the server answers on), and its ACK, which ends a transfer of one block. */
#include "probe.h"

#define SNP probe_snp
#define TRIES 20
#define REPLY_WAIT_MS 200
#define PROBE_PORT 40002
#define TFTP_PORT 69
#define TFTP_DATA 3
#define TFTP_ACK 4
#define TFTP_BLOCK 512

struct tftp_wait {
	const UINT8 *data;
	size_t size;
	UINT16 server_port;
};

static bool accept_block_1(const UINT8 *frame, UINTN length, void *ctx)
{
	struct tftp_wait *w = ctx;
	size_t size;
	const UINT8 *p = frame_udp_payload(frame, length, 0, PROBE_PORT, &size);

	if (!p || size < 4 || size > 4 + TFTP_BLOCK || p[0] || p[1] != TFTP_DATA || p[2] ||
	    p[3] != 1)
		return false;
	w->data = p + 4;
	w->size = size - 4;
	w->server_port = (UINT16)(frame[FRAME_ETH_HEADER + 20] << 8 | frame[FRAME_ETH_HEADER + 21]);
	return true;
}

static void send_ack(const UINT8 mac[6], UINT16 port)
{
	static UINT8 frame[64];
	static const UINT8 ack[4] = {0, TFTP_ACK, 0, 1};
	UINTN size = frame_udp(frame, mac, SNP->Mode->CurrentAddress.Addr, probe_guest_ip,
			       probe_host_ip, PROBE_PORT, port, ack, sizeof(ack));

	probe_send(frame, size, 0, 0);
}

void probe_tftp(const char *name)
{
	static UINT8 frame[1514], reply[1514];
	UINT8 rrq[256], mac[6];
	char text[TFTP_BLOCK + 1];
	size_t rrq_size = frame_tftp_rrq(rrq, sizeof(rrq), name);
	struct tftp_wait w = {0};
	int tries = 0;
	bool got = false;

	if (!CHECK(rrq_size) || !probe_bring_up() || !probe_host_mac(mac))
		return;
	while (!got && tries++ < TRIES) {
		UINTN length = sizeof(reply);
		UINTN size = frame_udp(frame, mac, SNP->Mode->CurrentAddress.Addr, probe_guest_ip,
				       probe_host_ip, PROBE_PORT, TFTP_PORT, rrq, rrq_size);
		got = probe_send(frame, size, 0, 0) &&
		      probe_receive(reply, &length, REPLY_WAIT_MS, accept_block_1, &w);
	}
	if (!CHECK(got))
		return;
	mem_copy(text, w.data, w.size);
	text[w.size] = 0;
	app_print("tftp: %s: %u bytes: %s\n", name, (UINT32)w.size, text);
	if (w.size < TFTP_BLOCK)
		send_ack(mac, w.server_port);
}
