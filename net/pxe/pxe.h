/* The PXE boot driver (net/pxe): binds to an EFI_SIMPLE_NETWORK_PROTOCOL without a LoadFile
 * and installs EFI_LOAD_FILE_PROTOCOL beside it, which runs DHCP and reads the boot file
 * over TFTP with the packet layers of net/. Private to net/pxe. */
#ifndef EMBER_NET_PXE_H
#define EMBER_NET_PXE_H

#include <efi/protocol/ip4_config2.h>
#include <efi/protocol/load_file.h>
#include <efi/protocol/pxe_base_code.h>
#include <efi/protocol/simple_network.h>
#include <ember/net/arp.h>
#include <ember/net/dhcp4.h>
#include <ember/net/http.h>
#include <ember/net/ipv4.h>
#include <ember/net/net_tools.h>
#include <ember/net/tcp.h>

#define PXE_SIGNATURE 0x31455850u /* "PXE1" */
#define PXE_FRAME_MAX 1536

/* A body downloaded over HTTP (pool memory, freed by pxe_http_free). */
struct pxe_http_body {
	uint8_t *data;
	UINT64 size;
	char content_type[HTTP_TYPE_MAX];
	char url[HTTP_URL_MAX + 1]; /* the URL asked for (before redirects) */
};

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
	bool bound_http; /* the lease was asked for as the HTTP boot client */
	uint32_t dns;	 /* the name server of the lease (option 6), or the one set */
	/* The configuration protocols for programs (the shell's ifconfig, ping, http):
	 * Ip4Config2 with its policy, and Ember's ping and HTTP GET. */
	unsigned index; /* the interface is "eth<index>" */
	EFI_IP4_CONFIG2_PROTOCOL ip4_config;
	EMBER_NET_TOOLS_PROTOCOL tools;
	bool static_policy; /* Ip4Config2PolicyStatic: the address is what a program set */
	bool config_dhcp;   /* DHCP for Ip4Config2: no proxyDHCP offer is awaited */
	/* HTTP boot: the child MAC()/IPv4()/Uri() with its LoadFile, and the body the size
	 * query downloaded, kept for the call that loads it. */
	EFI_HANDLE http_child;
	EFI_DEVICE_PATH_PROTOCOL *http_path;
	EFI_LOAD_FILE_PROTOCOL http_load_file;
	struct pxe_http_body http_cache;
	uint8_t rx[PXE_FRAME_MAX];
	uint8_t tx[PXE_FRAME_MAX];
	/* ICMP's own: an echo is answered while another frame is being built in tx. */
	uint8_t icmp_tx[PXE_FRAME_MAX];
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

/* Receives one frame (got_frame: one came); true when it is an IPv4 packet for us, in d->rx
 * until the next receive. ARP is answered on the way. */
bool pxe_receive_ip(struct pxe_dev *d, struct ipv4_packet *ip, bool *got_frame);
/* Sends a whole frame and waits for the SNP to give its buffer back. */
EFI_STATUS pxe_transmit(struct pxe_dev *d, const void *frame, size_t len);
/* The MAC of ip on our link, asking with ARP when the cache does not know it. */
EFI_STATUS pxe_resolve(struct pxe_dev *d, uint32_t ip, uint8_t *mac);
/* The MAC a packet to dst_ip goes to: dst_ip's, or the router's when off our subnet. */
EFI_STATUS pxe_next_hop(struct pxe_dev *d, uint32_t dst_ip, uint8_t *mac);

/* Runs DHCP (DISCOVER, OFFER, REQUEST, ACK) and binds the device to the lease; http: as
 * the HTTP boot client (vendor class HTTPClient, architecture 16). */
EFI_STATUS pxe_dhcp(struct pxe_dev *d, bool http);
/* Reads name from server over TFTP into buffer (*size bytes, buffer may be NULL); on
 * EFI_BUFFER_TOO_SMALL *size is the file's size. */
EFI_STATUS pxe_tftp_read(struct pxe_dev *d, uint32_t server, const char *name, void *buffer,
			 UINTN *size);
/* The same asking for blksize (8..1468) instead of 1468. */
EFI_STATUS pxe_tftp_read_sized(struct pxe_dev *d, uint32_t server, const char *name,
			       uint16_t blksize, void *buffer, UINTN *size);
/* Prints a line (format as lib/format.h) on the console for the user. */
void pxe_say(const char *fmt, ...);
/* The SMBIOS system UUID, in network order, for DHCP option 97; false when there is none. */
bool pxe_system_uuid(uint8_t *uuid);
/* Fills the PXE base code protocol and its Mode (net/pxe/pxe_base_code.c). */
void pxe_base_code_init(struct pxe_dev *d);
/* A new local UDP port for a transfer or a program's UdpWrite. */
uint16_t pxe_new_port(struct pxe_dev *d);

/* A TCP connection over the link and the MAC its segments go to. */
struct pxe_tcp {
	struct tcp_conn conn;
	uint8_t mac[NET_MAC_LEN];
};

/* Opens t to ip:port; fails when the peer refuses or never answers. */
EFI_STATUS pxe_tcp_connect(struct pxe_dev *d, struct pxe_tcp *t, uint32_t ip, uint16_t port);
/* Sends what t owes and takes in the frames waiting (got_frame: some came); fails once the
 * connection died (reset, retransmissions exhausted). */
EFI_STATUS pxe_tcp_pump(struct pxe_dev *d, struct pxe_tcp *t, bool *got_frame);
/* The address of name from the lease's name server. */
EFI_STATUS pxe_dns_resolve(struct pxe_dev *d, const char *name, uint32_t *ip);
/* GETs url (following up to 4 redirects) into out, showing progress when show is set. */
EFI_STATUS pxe_http_get(struct pxe_dev *d, const char *url, bool show, struct pxe_http_body *out);
void pxe_http_free(struct pxe_http_body *b);

/* HTTP boot (UEFI 2.10, 24.7): the URL uri, or the DHCP boot file when uri is NULL or "",
 * with LoadFile's size protocol. An ISO or disk image comes back with EFI_WARN_FILE_SYSTEM. */
EFI_STATUS pxe_http_boot(struct pxe_dev *d, const char *uri, UINTN *size, VOID *buffer);
/* The URL of a remaining path [IPv4()]/Uri(url) given to a LoadFile, copied to uri (cap
 * bytes); EFI_INVALID_PARAMETER for any other path or a URL that does not fit. */
EFI_STATUS pxe_uri_of_path(const EFI_DEVICE_PATH_PROTOCOL *path, char *uri, size_t cap);
/* s starts with http:// or https:// (any case). */
bool pxe_is_url(const char *s);
/* Creates and removes the HTTP boot child of the NIC (pxe_driver.c's Start and Stop). */
EFI_STATUS pxe_http_child_create(struct pxe_dev *d, EFI_HANDLE driver);
EFI_STATUS pxe_http_child_destroy(struct pxe_dev *d, EFI_HANDLE driver);

/* Answers an ICMP echo request to us (ip, in d->rx) straight to the MAC it came from
 * (net/pxe/pxe_icmp.c). */
void pxe_icmp_answer(struct pxe_dev *d, const struct ipv4_packet *ip, const uint8_t *src_mac);
/* Sends an ICMP echo request to ip and waits until timeout_ns for its reply. */
EFI_STATUS pxe_ping(struct pxe_dev *d, uint32_t ip, uint16_t seq, UINT64 timeout_ns,
		    UINT64 *rtt_ns);
/* Forgets the address, its mask, router and name server (and the lease). */
void pxe_unbind(struct pxe_dev *d);
/* Fills EFI_IP4_CONFIG2_PROTOCOL (pxe_ip4_config.c) and EMBER_NET_TOOLS_PROTOCOL
 * (pxe_tools.c) of the device. */
void pxe_ip4_config_init(struct pxe_dev *d);
void pxe_tools_init(struct pxe_dev *d);

/* LoadFile (UEFI 2.10, 13.1) of the PXE boot: DHCP, then the boot file over TFTP. */
EFI_STATUS EFIAPI pxe_load_file(EFI_LOAD_FILE_PROTOCOL *this, EFI_DEVICE_PATH_PROTOCOL *path,
				BOOLEAN boot_policy, UINTN *size, VOID *buffer);

#endif
