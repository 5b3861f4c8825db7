/* A fake NIC with a network behind it, for the PXE driver's tests: an
 * EFI_SIMPLE_NETWORK_PROTOCOL whose Transmit hands each frame to a DHCP server and a TFTP
 * server at 10.0.2.2 (as QEMU's user network has them; TFTP answers at any 10.0.2.x it is
 * asked at, and ARP for all of 10.0.2.x) and ICMP echo at 10.0.2.2, whose answers Receive
 * then returns. Written from the
 * RFCs' layouts, without Ember's net/ code. */
#ifndef EMBER_TEST_FAKE_SNP_H
#define EMBER_TEST_FAKE_SNP_H

#include <efi/protocol/simple_network.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fake_snp_config {
	const char *boot_file; /* the DHCP boot file, and the one name TFTP serves */
	const uint8_t *file;   /* its contents */
	size_t file_size;
	bool no_options;	      /* a TFTP server of RFC 1350 only: no OACK */
	bool no_tsize;		      /* OACK with blksize only */
	unsigned drop_every;	      /* lose every Nth frame the client sends (0: none) */
	unsigned drop_reply_every;    /* lose every Nth frame sent to the client (0: none) */
	bool boot_file_in_offer_only; /* the ACK names no boot file */
	bool file_missing;	      /* TFTP answers every RRQ with ERROR 1 */
	const char *option66;	      /* the TFTP server name (66) DHCP gives, or NULL */
	bool no_boot_file;	      /* DHCP names no boot file */
	bool dhcp_silent;	      /* no DHCP server */
	bool proxy;		  /* a proxyDHCP offer names the boot file (with no_boot_file) */
	bool proxy_late;	  /* ... sent after the ACK instead of after the OFFER */
	uint32_t hw_address_size; /* the SNP's, 0 for Ethernet's 6 */
	bool ping_client;	  /* after the DHCP ACK, 10.0.2.2 sends an ICMP echo request */
};

struct fake_snp;

/* A NIC on a new handle (with a MAC device path); NULL on failure. */
struct fake_snp *fake_snp_create(const struct fake_snp_config *config);
void fake_snp_destroy(struct fake_snp *f);
EFI_HANDLE fake_snp_handle(struct fake_snp *f);
EFI_SIMPLE_NETWORK_PROTOCOL *fake_snp_protocol(struct fake_snp *f);

/* What the server saw. */
struct fake_snp_stats {
	unsigned discovers, requests, rrqs, errors_from_client, dropped, arp_requests;
	unsigned dropped_replies; /* frames to the client lost (drop_reply_every) */
	unsigned acks;		  /* TFTP ACKs received */
	uint16_t rrq_blksize;	  /* the blksize the RRQ asked for */
	char last_error[64];	  /* the message of the client's last TFTP ERROR */
	uint8_t option97[17];	  /* the last DISCOVER's client machine identifier */
	uint32_t tftp_ip;	  /* where the last RRQ was sent (every 10.0.2.x answers) */
	/* ICMP echo (10.0.2.2 answers requests to itself): requests the client sent, and its
	 * replies to ping_client's request that were right (type, id, seq, data, checksum). */
	unsigned echo_requests, echo_replies;
};
const struct fake_snp_stats *fake_snp_stats(struct fake_snp *f);

#endif
