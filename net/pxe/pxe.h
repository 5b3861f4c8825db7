/* The PXE boot driver (net/pxe): binds to an EFI_SIMPLE_NETWORK_PROTOCOL without a LoadFile
 * and installs EFI_LOAD_FILE_PROTOCOL beside it, which runs DHCP and reads the boot file
 * over TFTP with the packet layers of net/. Private to net/pxe. */
#ifndef EMBER_NET_PXE_H
#define EMBER_NET_PXE_H

#include <efi/protocol/load_file.h>
#include <efi/protocol/pxe_base_code.h>
#include <efi/protocol/simple_network.h>
#include <ember/net/arp.h>
#include <ember/net/dhcp4.h>
#include <ember/net/ipv4.h>

#define PXE_SIGNATURE 0x31455850u /* "PXE1" */
#define PXE_FRAME_MAX 1536

struct pxe_dev {
	UINT32 signature;
	EFI_HANDLE controller;
	EFI_SIMPLE_NETWORK_PROTOCOL *snp;
	EFI_LOAD_FILE_PROTOCOL load_file;
	EFI_PXE_BASE_CODE_PROTOCOL pxe;
	EFI_PXE_BASE_CODE_MODE mode; /* DhcpDiscover and DhcpAck as sent and received */
	uint8_t mac[NET_MAC_LEN];
	uint32_t ip, subnet, router; /* 0 until DHCP bound the device */
	struct arp_cache arp;
	uint16_t ip_id, next_port;
	struct dhcp4_client dhcp; /* dhcp.lease is the lease once bound */
	bool bound;
	uint8_t rx[PXE_FRAME_MAX];
	uint8_t tx[PXE_FRAME_MAX];
};

/* Where a UDP payload to send is written (then pxe_send_udp). */
static inline uint8_t *pxe_tx_payload(struct pxe_dev *d)
{
	return d->tx + NET_UDP_FRAME_HLEN;
}
#define PXE_UDP_PAYLOAD_MAX (PXE_FRAME_MAX - NET_UDP_FRAME_HLEN)

/* Starts and initialises the SNP when it is not yet, and receives unicast and broadcast. */
EFI_STATUS pxe_link_up(struct pxe_dev *d);
/* Sends the len bytes at pxe_tx_payload from our address and src_port to dst_ip:dst_port,
 * resolving the next hop with ARP (broadcast before DHCP, or to 255.255.255.255). */
EFI_STATUS pxe_send_udp(struct pxe_dev *d, uint32_t dst_ip, uint16_t src_port, uint16_t dst_port,
			size_t len);
/* Waits until deadline_ns (core_time_ns) for a UDP datagram to port (0: any port); answers
 * ARP on the way.
 * The datagram points into d->rx, valid until the next receive. */
bool pxe_wait_udp(struct pxe_dev *d, uint16_t port, UINT64 deadline_ns, struct udp_datagram *out,
		  uint32_t *src_ip);

/* Runs DHCP (DISCOVER, OFFER, REQUEST, ACK) and binds the device to the lease. */
EFI_STATUS pxe_dhcp(struct pxe_dev *d);
/* Reads name from server over TFTP into buffer (*size bytes, buffer may be NULL); on
 * EFI_BUFFER_TOO_SMALL *size is the file's size. */
EFI_STATUS pxe_tftp_read(struct pxe_dev *d, uint32_t server, const char *name, void *buffer,
			 UINTN *size);
/* Prints a line (format as lib/format.h) on the console for the user. */
void pxe_say(const char *fmt, ...);
/* The SMBIOS system UUID, in network order, for DHCP option 97; false when there is none. */
bool pxe_system_uuid(uint8_t *uuid);
/* Fills the PXE base code protocol and its Mode (net/pxe/pxe_base_code.c). */
void pxe_base_code_init(struct pxe_dev *d);
/* A new local UDP port for a transfer or a program's UdpWrite. */
uint16_t pxe_new_port(struct pxe_dev *d);

/* LoadFile (UEFI 2.10, 13.1) of the PXE boot: DHCP, then the boot file over TFTP. */
EFI_STATUS EFIAPI pxe_load_file(EFI_LOAD_FILE_PROTOCOL *this, EFI_DEVICE_PATH_PROTOCOL *path,
				BOOLEAN boot_policy, UINTN *size, VOID *buffer);

#endif
