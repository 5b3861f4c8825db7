/* Fuzzes the PXE boot's whole receive path (net/pxe over every packet layer) against a
 * hostile network: the input is a run of records, each a kind byte, two bytes of length and
 * that many bytes. Kind 0 is a raw frame; kind 1 a UDP payload to the DHCP client port and
 * kind 2 one to the port the client last sent from (its TFTP transfer), both wrapped by the
 * harness in a valid frame from 10.0.2.2 so the checksums do not stop the mutations (and a
 * DHCP payload gets the client's xid); kind / 3 picks the server's port, and a kind 2
 * record waits until the client has sent since the last one. DHCP then a TFTP read run over
 * it; when the input is used up, time jumps so every wait ends. Whatever comes, the driver
 * must stay inside its buffers and return. */
#include "fuzz.h"
#include "../unit/support/test_platform.h"
#include <stdlib.h>
#include <string.h>

#include <ember/core/core.h>
#include <ember/net/eth.h>
#include <ember/net/ipv4.h>
#include "../../net/pxe/pxe.h"

void test_advance_time_ns(uint64_t ns);

static const uint8_t server_mac[6] = {0x52, 0x55, 0x0a, 0, 2, 2};
static const uint8_t client_mac[6] = {0x52, 0x54, 0, 0x12, 0x34, 0x56};

static struct {
	const uint8_t *data;
	size_t size, at;
	uint16_t client_port; /* the source port of the client's last UDP frame */
	uint8_t xid[4];	      /* of the client's last DHCP message */
	bool answered;	      /* no TFTP packet of the client's awaits an answer */
	EFI_SIMPLE_NETWORK_MODE mode;
} in;

static EFI_STATUS EFIAPI fz_transmit(EFI_SIMPLE_NETWORK_PROTOCOL *this, UINTN header, UINTN size,
				     VOID *buffer, EFI_MAC_ADDRESS *src, EFI_MAC_ADDRESS *dst,
				     UINT16 *protocol)
{
	const uint8_t *f = buffer;

	/* Only a TFTP packet (not ARP, not DHCP) is answered by a kind 2 record. */
	in.answered = true;
	if (size >= NET_UDP_FRAME_HLEN && net_get16(f + 12) == ETH_TYPE_IPV4) {
		in.client_port = net_get16(f + 34);
		in.answered = net_get16(f + 36) == 67;
	}
	if (size >= NET_UDP_FRAME_HLEN + 8 && in.client_port == 68)
		memcpy(in.xid, f + NET_UDP_FRAME_HLEN + 4, 4);
	return EFI_SUCCESS;
}

/* Wraps payload into a UDP frame from 10.0.2.2:sport to the client. */
static size_t fz_udp(uint8_t *buf, size_t cap, uint16_t sport, uint16_t dport,
		     const uint8_t *payload, size_t len)
{
	if (len > cap - NET_UDP_FRAME_HLEN)
		len = cap - NET_UDP_FRAME_HLEN;
	memcpy(buf + NET_UDP_FRAME_HLEN, payload, len);
	return udp_frame_build(buf, cap, client_mac, server_mac, 0x0a000202, 0x0a00020f, sport,
			       dport, len, 1);
}

static EFI_STATUS EFIAPI fz_receive(EFI_SIMPLE_NETWORK_PROTOCOL *this, UINTN *header, UINTN *size,
				    VOID *buffer, EFI_MAC_ADDRESS *src, EFI_MAC_ADDRESS *dst,
				    UINT16 *protocol)
{
	uint8_t kind;
	size_t len;
	const uint8_t *p;

	if (in.at + 3 > in.size) {
		test_advance_time_ns(1000000000ull); /* nothing more will come */
		return EFI_NOT_READY;
	}
	kind = in.data[in.at];
	/* An answer to the TFTP transfer comes after the client asked (not while it looks for
	 * the server's MAC, which drops datagrams). */
	if (kind % 3 == 2 && in.answered) {
		test_advance_time_ns(1000000000ull); /* the client's wait ends: it sends again */
		return EFI_NOT_READY;
	}
	len = net_get16(in.data + in.at + 1);
	in.at += 3;
	if (len > in.size - in.at)
		len = in.size - in.at;
	p = in.data + in.at;
	in.at += len;
	if (kind % 3 == 0) {
		len = len < *size ? len : *size;
		memcpy(buffer, p, len);
		*size = len;
	} else if (kind % 3 == 1) {
		uint8_t dhcp[1472];

		len = len < sizeof(dhcp) ? len : sizeof(dhcp);
		memcpy(dhcp, p, len);
		/* The transaction is the client's (random) one, so the options get walked. */
		if (len >= 8)
			memcpy(dhcp + 4, in.xid, 4);
		*size = fz_udp(buffer, *size, 67, 68, dhcp, len);
	} else {
		*size =
		    fz_udp(buffer, *size, (uint16_t)(40000 + kind / 3 % 4), in.client_port, p, len);
		in.answered = true;
	}
	return *size ? EFI_SUCCESS : EFI_NOT_READY;
}

static EFI_STATUS EFIAPI fz_get_status(EFI_SIMPLE_NETWORK_PROTOCOL *this, UINT32 *irq, VOID **tx)
{
	static uint8_t done;

	if (tx)
		*tx = &done;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI fz_ok(EFI_SIMPLE_NETWORK_PROTOCOL *this)
{
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI fz_filters(EFI_SIMPLE_NETWORK_PROTOCOL *this, UINT32 enable,
				    UINT32 disable, BOOLEAN reset, UINTN count,
				    EFI_MAC_ADDRESS *filter)
{
	return EFI_SUCCESS;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	test_platform_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static EFI_SIMPLE_NETWORK_PROTOCOL snp = {
	    .Start = fz_ok,
	    .ReceiveFilters = fz_filters,
	    .GetStatus = fz_get_status,
	    .Transmit = fz_transmit,
	    .Receive = fz_receive,
	};
	struct pxe_dev *d = pool_alloc(sizeof(*d));
	static uint8_t buffer[8192];
	UINTN n = sizeof(buffer);

	in.data = data;
	in.size = size;
	in.at = 0;
	in.client_port = 0;
	in.answered = true;
	memset(&in.mode, 0, sizeof(in.mode));
	in.mode.State = EfiSimpleNetworkInitialized;
	in.mode.HwAddressSize = 6;
	in.mode.ReceiveFilterMask = 0x1f;
	memcpy(in.mode.CurrentAddress.Addr, client_mac, 6);
	snp.Mode = &in.mode;
	if (!d)
		abort();
	d->signature = PXE_SIGNATURE;
	d->snp = &snp;
	pxe_base_code_init(d);
	if (!EFI_ERROR(pxe_link_up(d)) && !EFI_ERROR(pxe_dhcp(d, false))) {
		const struct dhcp4_reply *l = dhcp4_client_boot(&d->dhcp);
		EFI_STATUS s = pxe_tftp_read(d, 0x0a000202, l ? l->boot_file : "f", buffer, &n);
		if ((s == EFI_SUCCESS && n > sizeof(buffer)) ||
		    (s == EFI_BUFFER_TOO_SMALL && n <= sizeof(buffer)))
			abort();
	}
	pool_free(d);
	return 0;
}
