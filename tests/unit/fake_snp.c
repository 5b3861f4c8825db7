/* A fake NIC and the servers of QEMU's user network behind it (fake_snp.h). Frames are
 * read and written at the fixed offsets of RFC 894/791/768 (the client sends no IP
 * options), with a checksum of its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_snp.h"
#include "net_packets.h"
#include <ember/core/core.h>
#include <ember/lib/util.h>
#include <efi/protocol/device_path.h>

#define RX_SLOTS 16
#define FRAME_MAX 1600
#define SERVER_IP 0x0a000202u
#define CLIENT_IP 0x0a00020fu
#define SERVER_TID 40000

static const uint8_t server_mac[6] = {0x52, 0x55, 0x0a, 0x00, 0x02, 0x02};
static const uint8_t client_mac[6] = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56};
static const uint8_t bcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

struct fake_snp {
	EFI_SIMPLE_NETWORK_PROTOCOL snp;
	EFI_SIMPLE_NETWORK_MODE mode;
	EFI_HANDLE handle;
	struct {
		MAC_ADDR_DEVICE_PATH mac;
		EFI_DEVICE_PATH_PROTOCOL end;
	} __attribute__((packed)) path;
	struct fake_snp_config cfg;
	struct fake_snp_stats stats;
	uint8_t rx[RX_SLOTS][FRAME_MAX];
	size_t rx_len[RX_SLOTS];
	unsigned rx_head, rx_count, sent, received;
	void *last_tx;
	/* The TFTP transfer. */
	uint16_t client_port, blksize;
	uint32_t blocks_sent; /* data blocks sent so far (the last one's number, unwrapped) */
};

static void send_udp_from(struct fake_snp *f, uint32_t src, uint16_t sport, uint16_t dport,
			  uint32_t dst, const void *payload, size_t len);
static void send_echo(struct fake_snp *f, uint8_t type, uint16_t id, uint16_t seq,
		      const uint8_t *data, size_t len);

/* The data of the echo request 10.0.2.2 sends with ping_client. */
#define ECHO_DATA "fake ping data!!"

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

static uint16_t csum(const uint8_t *p, size_t n, uint32_t s)
{
	for (size_t i = 0; i < n; i++)
		s += i & 1 ? p[i] : (uint32_t)p[i] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

/* Queues a frame from the server with an IPv4 header (protocol proto, payload_len bytes of
 * it to follow at offset 34); NULL when the queue is full or the frame too long. */
static uint8_t *queue_ipv4(struct fake_snp *f, uint32_t src, uint32_t dst, uint8_t proto,
			   size_t payload_len)
{
	size_t n = 34 + payload_len;
	uint8_t *fr;

	if (f->rx_count == RX_SLOTS || n > FRAME_MAX)
		return NULL;
	fr = f->rx[(f->rx_head + f->rx_count) % RX_SLOTS];
	f->rx_len[(f->rx_head + f->rx_count++) % RX_SLOTS] = n;
	memcpy(fr, dst == 0xffffffff ? bcast : client_mac, 6);
	memcpy(fr + 6, server_mac, 6);
	put16(fr + 12, 0x0800);
	memset(fr + 14, 0, 20);
	fr[14] = 0x45;
	put16(fr + 16, 20 + payload_len);
	fr[22] = 64;
	fr[23] = proto;
	put32(fr + 26, src);
	put32(fr + 30, dst);
	put16(fr + 24, csum(fr + 14, 20, 0));
	return fr;
}

/* Queues a UDP frame from the server to the client. */
static void send_udp(struct fake_snp *f, uint16_t sport, uint16_t dport, uint32_t dst,
		     const void *payload, size_t len)
{
	send_udp_from(f, SERVER_IP, sport, dport, dst, payload, len);
}

static void send_udp_from(struct fake_snp *f, uint32_t src, uint16_t sport, uint16_t dport,
			  uint32_t dst, const void *payload, size_t len)
{
	uint8_t *fr = queue_ipv4(f, src, dst, 17, 8 + len), pseudo[12];
	uint16_t s;

	if (!fr)
		return;
	put16(fr + 34, sport);
	put16(fr + 36, dport);
	put16(fr + 38, 8 + len);
	put16(fr + 40, 0);
	memcpy(fr + 42, payload, len);
	memcpy(pseudo, fr + 26, 8);
	pseudo[8] = 0;
	pseudo[9] = 17;
	put16(pseudo + 10, 8 + len);
	s = csum(fr + 34, 8 + len, (uint32_t)(uint16_t)~csum(pseudo, 12, 0));
	put16(fr + 40, s ? s : 0xffff);
}

/* An option of a client's message of n bytes, or NULL. */
static const uint8_t *dhcp_option(const uint8_t *m, size_t n, uint8_t code)
{
	for (size_t at = 240; at + 2 < n && m[at] != 255; at += m[at] ? 2 + (size_t)m[at + 1] : 1)
		if (m[at] == code)
			return m + at;
	return NULL;
}

/* The DHCP message type (53), 0 when absent. */
static uint8_t dhcp_type(const uint8_t *m, size_t n)
{
	const uint8_t *o = dhcp_option(m, n, 53);

	return o ? o[2] : 0;
}

/* A proxyDHCP offer: no address, PXEClient, the boot file (PXE 2.1, 2.2.5). */
static void send_proxy_offer(struct fake_snp *f, uint32_t xid)
{
	uint8_t reply[576], opts[300];
	size_t o = 0, name = strlen(f->cfg.boot_file);
	struct test_dhcp_reply r = {2, xid, 0, 0, client_mac};

	memcpy(opts, "\x36\x04\x0a\x00\x02\x02\x3c\x09PXEClient", 17);
	o = 17;
	opts[o++] = 67;
	opts[o++] = (uint8_t)name;
	memcpy(opts + o, f->cfg.boot_file, name);
	o += name;
	opts[o++] = 255;
	r.opts = opts;
	r.opts_len = o;
	send_udp(f, 67, 68, 0xffffffff, reply, test_dhcp_reply(reply, &r));
}

static void serve_dhcp(struct fake_snp *f, const uint8_t *m, size_t n)
{
	uint8_t reply[576], opts[300];
	uint8_t type = dhcp_type(m, n);
	size_t o = 0, name = strlen(f->cfg.boot_file);
	bool offer = type == 1;
	struct test_dhcp_reply r = {offer ? 2 : 5, (uint32_t)get16(m + 4) << 16 | get16(m + 6),
				    CLIENT_IP, SERVER_IP, client_mac};

	if (type != 1 && type != 3)
		return;
	offer ? f->stats.discovers++ : f->stats.requests++;
	if (offer && dhcp_option(m, n, 97) && dhcp_option(m, n, 97)[1] == 17)
		memcpy(f->stats.option97, dhcp_option(m, n, 97) + 2, 17);
	if (f->cfg.dhcp_silent)
		return;
	memcpy(opts + o, "\x36\x04\x0a\x00\x02\x02\x01\x04\xff\xff\xff\x00\x03\x04\x0a\x00\x02\x02",
	       18);
	o += 18;
	if (f->cfg.option66) {
		opts[o++] = 66;
		opts[o++] = (uint8_t)strlen(f->cfg.option66);
		memcpy(opts + o, f->cfg.option66, strlen(f->cfg.option66));
		o += strlen(f->cfg.option66);
	}
	if ((offer || !f->cfg.boot_file_in_offer_only) && !f->cfg.no_boot_file) {
		opts[o++] = 67;
		opts[o++] = (uint8_t)name;
		memcpy(opts + o, f->cfg.boot_file, name);
		o += name;
	}
	opts[o++] = 255;
	r.opts = opts;
	r.opts_len = o;
	send_udp(f, 67, 68, 0xffffffff, reply, test_dhcp_reply(reply, &r));
	if (f->cfg.proxy && offer != f->cfg.proxy_late)
		send_proxy_offer(f, r.xid);
	if (!offer && f->cfg.ping_client)
		send_echo(f, 8, 0x1234, 7, (const uint8_t *)ECHO_DATA, sizeof(ECHO_DATA) - 1);
}

static void send_data(struct fake_snp *f, uint32_t block)
{
	uint8_t p[4 + 2048];
	size_t off = (size_t)(block - 1) * f->blksize, n = 0;

	if (off < f->cfg.file_size)
		n = f->cfg.file_size - off < f->blksize ? f->cfg.file_size - off : f->blksize;
	put16(p, 3);
	put16(p + 2, block);
	memcpy(p + 4, f->cfg.file + (off < f->cfg.file_size ? off : 0), n);
	f->blocks_sent = block;
	send_udp_from(f, f->stats.tftp_ip, SERVER_TID, f->client_port, CLIENT_IP, p, 4 + n);
}

static void send_error(struct fake_snp *f, uint16_t port, uint16_t code, const char *msg)
{
	uint8_t p[64];

	put16(p, 5);
	put16(p + 2, code);
	strcpy((char *)p + 4, msg);
	send_udp_from(f, f->stats.tftp_ip, SERVER_TID, port, CLIENT_IP, p, 5 + strlen(msg));
}

/* An RRQ: "name\0mode\0" then option pairs. */
static void serve_rrq(struct fake_snp *f, uint16_t port, const uint8_t *p, size_t n)
{
	const char *name = (const char *)p + 2, *at;
	uint8_t oack[64];
	size_t o = 2;

	f->stats.rrqs++;
	f->client_port = port;
	f->blksize = 512;
	if (strcmp(name, f->cfg.boot_file) || f->cfg.file_missing) {
		send_error(f, port, 1, "File not found");
		return;
	}
	at = name + strlen(name) + 1;
	at += strlen(at) + 1; /* the mode */
	put16(oack, 6);
	for (; at < (const char *)p + n; at += strlen(at) + 1) {
		const char *value = at + strlen(at) + 1;
		if (!strcmp(at, "blksize")) {
			f->stats.rrq_blksize = (uint16_t)atoi(value);
			f->blksize = f->stats.rrq_blksize;
			o += (size_t)sprintf((char *)oack + o, "blksize%c%u", 0, f->blksize) + 1;
		} else if (!strcmp(at, "tsize") && !f->cfg.no_tsize) {
			o += (size_t)sprintf((char *)oack + o, "tsize%c%zu", 0, f->cfg.file_size) +
			     1;
		}
		at = value;
	}
	/* RFC 2347: no OACK without an option to acknowledge. */
	if (f->cfg.no_options || o == 2) {
		f->blksize = 512;
		send_data(f, 1);
		return;
	}
	f->blocks_sent = 0;
	send_udp_from(f, f->stats.tftp_ip, SERVER_TID, port, CLIENT_IP, oack, o);
}

static void serve_tftp(struct fake_snp *f, const uint8_t *p, size_t n)
{
	uint32_t acked;

	if (get16(p) == 5) {
		f->stats.errors_from_client++;
		snprintf(f->stats.last_error, sizeof(f->stats.last_error), "%s",
			 (const char *)p + 4);
		return;
	}
	if (get16(p) != 4)
		return;
	f->stats.acks++;
	/* The ACK's block number, unwrapped against what was sent. */
	acked = (f->blocks_sent & ~0xffffu) | get16(p + 2);
	if (acked > f->blocks_sent)
		acked -= 0x10000;
	if (acked == f->blocks_sent && (size_t)acked * f->blksize <= f->cfg.file_size)
		send_data(f, acked + 1);
	else if (acked + 1 == f->blocks_sent)
		send_data(f, f->blocks_sent); /* a lost DATA: its ACK came again */
}

/* Queues an ICMP echo message (RFC 792) of type from 10.0.2.2 to the client. */
static void send_echo(struct fake_snp *f, uint8_t type, uint16_t id, uint16_t seq,
		      const uint8_t *data, size_t len)
{
	uint8_t *fr = queue_ipv4(f, SERVER_IP, CLIENT_IP, 1, 8 + len);

	if (!fr)
		return;
	fr[34] = type;
	fr[35] = 0;
	put16(fr + 36, 0);
	put16(fr + 38, id);
	put16(fr + 40, seq);
	memcpy(fr + 42, data, len);
	put16(fr + 36, csum(fr + 34, 8 + len, 0));
}

/* An echo request to 10.0.2.2 is answered; the client's reply to ours is checked. */
static void serve_icmp(struct fake_snp *f, const uint8_t *fr, size_t size)
{
	size_t len = get16(fr + 16);

	if (len < 28 || 14 + len > size || csum(fr + 34, len - 20, 0) != 0)
		return;
	if (fr[34] == 8 && get16(fr + 30) == SERVER_IP >> 16 &&
	    get16(fr + 32) == (SERVER_IP & 0xffff)) {
		f->stats.echo_requests++;
		send_echo(f, 0, get16(fr + 38), get16(fr + 40), fr + 42, len - 28);
	} else if (fr[34] == 0 && fr[35] == 0 && get16(fr + 38) == 0x1234 && get16(fr + 40) == 7 &&
		   len - 28 == sizeof(ECHO_DATA) - 1 && !memcmp(fr + 42, ECHO_DATA, len - 28) &&
		   !memcmp(fr, server_mac, 6)) {
		f->stats.echo_replies++;
	}
}

static void serve_arp(struct fake_snp *f, const uint8_t *fr)
{
	uint8_t *r;

	if (get16(fr + 20) != 1 || memcmp(fr + 38, "\x0a\x00\x02", 3) || f->rx_count == RX_SLOTS)
		return;
	f->stats.arp_requests++;
	r = f->rx[(f->rx_head + f->rx_count) % RX_SLOTS];
	f->rx_len[(f->rx_head + f->rx_count++) % RX_SLOTS] = 60;
	memset(r, 0, 60);
	memcpy(r, fr + 6, 6);
	memcpy(r + 6, server_mac, 6);
	memcpy(r + 12, fr + 12, 8);
	put16(r + 20, 2);
	memcpy(r + 22, server_mac, 6);
	memcpy(r + 28, fr + 38, 4);
	memcpy(r + 32, fr + 22, 10);
}

static EFI_STATUS EFIAPI fake_transmit(EFI_SIMPLE_NETWORK_PROTOCOL *this, UINTN header, UINTN size,
				       VOID *buffer, EFI_MAC_ADDRESS *src, EFI_MAC_ADDRESS *dst,
				       UINT16 *protocol)
{
	struct fake_snp *f = container_of(this, struct fake_snp, snp);
	const uint8_t *fr = buffer;

	if (f->mode.State != EfiSimpleNetworkInitialized)
		return EFI_NOT_STARTED;
	if (header || size < 42 || size > FRAME_MAX)
		return EFI_INVALID_PARAMETER;
	f->last_tx = buffer;
	if (f->cfg.drop_every && ++f->sent % f->cfg.drop_every == 0) {
		f->stats.dropped++;
		return EFI_SUCCESS;
	}
	if (get16(fr + 12) == 0x0806)
		serve_arp(f, fr);
	else if (get16(fr + 12) == 0x0800 && fr[23] == 17 && get16(fr + 36) == 67)
		serve_dhcp(f, fr + 42, get16(fr + 38) - 8);
	else if (get16(fr + 12) == 0x0800 && fr[23] == 17 && get16(fr + 36) == 69 &&
		 (f->stats.tftp_ip = (uint32_t)get16(fr + 30) << 16 | get16(fr + 32)))
		serve_rrq(f, get16(fr + 34), fr + 42, get16(fr + 38) - 8);
	else if (get16(fr + 12) == 0x0800 && fr[23] == 17 && get16(fr + 36) == SERVER_TID)
		serve_tftp(f, fr + 42, get16(fr + 38) - 8);
	else if (get16(fr + 12) == 0x0800 && fr[23] == 1)
		serve_icmp(f, fr, size);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI fake_receive(EFI_SIMPLE_NETWORK_PROTOCOL *this, UINTN *header, UINTN *size,
				      VOID *buffer, EFI_MAC_ADDRESS *src, EFI_MAC_ADDRESS *dst,
				      UINT16 *protocol)
{
	struct fake_snp *f = container_of(this, struct fake_snp, snp);
	size_t n;

	if (f->mode.State != EfiSimpleNetworkInitialized)
		return EFI_NOT_STARTED;
	if (!f->rx_count)
		return EFI_NOT_READY;
	if (f->cfg.drop_reply_every && ++f->received % f->cfg.drop_reply_every == 0) {
		/* Lost on the way to the client: DHCP answers, ARP replies and DATA alike. */
		f->rx_head = (f->rx_head + 1) % RX_SLOTS;
		f->rx_count--;
		f->stats.dropped_replies++;
		return EFI_NOT_READY;
	}
	n = f->rx_len[f->rx_head];
	if (*size < n) {
		*size = n;
		return EFI_BUFFER_TOO_SMALL;
	}
	memcpy(buffer, f->rx[f->rx_head], n);
	*size = n;
	f->rx_head = (f->rx_head + 1) % RX_SLOTS;
	f->rx_count--;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI fake_start(EFI_SIMPLE_NETWORK_PROTOCOL *this)
{
	struct fake_snp *f = container_of(this, struct fake_snp, snp);

	if (f->mode.State != EfiSimpleNetworkStopped)
		return EFI_ALREADY_STARTED;
	f->mode.State = EfiSimpleNetworkStarted;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI fake_initialize(EFI_SIMPLE_NETWORK_PROTOCOL *this, UINTN rx, UINTN tx)
{
	struct fake_snp *f = container_of(this, struct fake_snp, snp);

	if (f->mode.State != EfiSimpleNetworkStarted)
		return EFI_NOT_STARTED;
	f->mode.State = EfiSimpleNetworkInitialized;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI fake_filters(EFI_SIMPLE_NETWORK_PROTOCOL *this, UINT32 enable,
				      UINT32 disable, BOOLEAN reset, UINTN count,
				      EFI_MAC_ADDRESS *filter)
{
	struct fake_snp *f = container_of(this, struct fake_snp, snp);

	f->mode.ReceiveFilterSetting = (f->mode.ReceiveFilterSetting | enable) & ~disable;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI fake_get_status(EFI_SIMPLE_NETWORK_PROTOCOL *this, UINT32 *irq, VOID **tx)
{
	struct fake_snp *f = container_of(this, struct fake_snp, snp);

	if (irq)
		*irq = 0;
	if (tx) {
		*tx = f->last_tx;
		f->last_tx = NULL;
	}
	return EFI_SUCCESS;
}

struct fake_snp *fake_snp_create(const struct fake_snp_config *config)
{
	static const EFI_GUID snp_guid = EFI_SIMPLE_NETWORK_PROTOCOL_GUID;
	static const EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
	struct fake_snp *f = calloc(1, sizeof(*f));

	f->cfg = *config;
	f->mode.HwAddressSize = config->hw_address_size ? config->hw_address_size : 6;
	f->mode.MediaHeaderSize = 14;
	f->mode.MaxPacketSize = 1500;
	f->mode.ReceiveFilterMask = 0x1f;
	memcpy(f->mode.CurrentAddress.Addr, client_mac, 6);
	memcpy(f->mode.PermanentAddress.Addr, client_mac, 6);
	memset(f->mode.BroadcastAddress.Addr, 0xff, 6);
	f->snp = (EFI_SIMPLE_NETWORK_PROTOCOL){.Revision = EFI_SIMPLE_NETWORK_PROTOCOL_REVISION,
					       .Start = fake_start,
					       .Initialize = fake_initialize,
					       .ReceiveFilters = fake_filters,
					       .GetStatus = fake_get_status,
					       .Transmit = fake_transmit,
					       .Receive = fake_receive,
					       .Mode = &f->mode};
	f->path.mac.Header = (EFI_DEVICE_PATH_PROTOCOL){
	    MESSAGING_DEVICE_PATH, MSG_MAC_ADDR_DP, {sizeof(f->path.mac), 0}};
	memcpy(f->path.mac.MacAddress.Addr, client_mac, 6);
	f->path.mac.IfType = 1;
	f->path.end = (EFI_DEVICE_PATH_PROTOCOL){
	    END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {4, 0}};
	if (EFI_ERROR(protocol_install_multiple(&f->handle, &dp_guid, &f->path, &snp_guid, &f->snp,
						NULL))) {
		free(f);
		return NULL;
	}
	return f;
}

void fake_snp_destroy(struct fake_snp *f)
{
	static const EFI_GUID snp_guid = EFI_SIMPLE_NETWORK_PROTOCOL_GUID;
	static const EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;

	driver_disconnect(f->handle, NULL, NULL);
	protocol_uninstall_multiple(f->handle, &dp_guid, &f->path, &snp_guid, &f->snp, NULL);
	free(f);
}

EFI_HANDLE fake_snp_handle(struct fake_snp *f)
{
	return f->handle;
}

EFI_SIMPLE_NETWORK_PROTOCOL *fake_snp_protocol(struct fake_snp *f)
{
	return &f->snp;
}

const struct fake_snp_stats *fake_snp_stats(struct fake_snp *f)
{
	return &f->stats;
}
