/* A front end for Ethernet NIC drivers (virtio-net, the hosted NIC): one struct that carries
 * EFI_SIMPLE_NETWORK_PROTOCOL (UEFI 2.10, 24.1) with its mode, and does what is the same for
 * every NIC: the state machine, the argument checks and their statuses, the receive filters
 * and multicast list, the media header of Transmit and Receive, the interrupt bits of
 * GetStatus and WaitForPacket. The driver only moves frames (struct snp_front_ops).
 *
 * States: Start takes Stopped to Started, Initialize Started to Initialized (the device is
 * brought up only then), Shutdown back to Started, Stop to Stopped. A call in the wrong state
 * answers EFI_NOT_STARTED when the interface is stopped and EFI_DEVICE_ERROR when it is
 * started but not initialized (EFI_ALREADY_STARTED for Start); arguments are checked after
 * the state. Every entry point runs at the driver's lock_tpl, so a caller's timer (MNP polls
 * from one) never interleaves with the device. */
#ifndef EMBER_SNP_FRONT_H
#define EMBER_SNP_FRONT_H

#include <stdbool.h>
#include <efi/protocol/simple_network.h>

#define SNP_ETH_ADDR 6
#define SNP_ETH_HEADER 14 /* destination, source, EtherType */
#define SNP_ETH_MTU 1500

struct snp_front;

struct snp_front_ops {
	/* Initialize: the device gets ready to move frames; nothing received before counts. */
	EFI_STATUS (*up)(struct snp_front *f);
	/* Shutdown (and Reset, before up): the device stops; what it received is dropped and
	 * the buffers it sent are forgotten. */
	void (*down)(struct snp_front *f);
	/* Lets the device catch up: buffers it sent, frames it received. */
	void (*poll)(struct snp_front *f);
	bool (*link_up)(struct snp_front *f);
	/* Puts a whole frame (media header included) on the wire; owner comes back through
	 * take_sent once it is sent. EFI_NOT_READY when the device has no room. */
	EFI_STATUS (*send)(struct snp_front *f, const UINT8 *frame, UINT32 len, void *owner);
	/* The oldest buffer sent and not yet handed back, or NULL. */
	void *(*take_sent)(struct snp_front *f);
	/* The oldest received frame that snp_frame_accepted lets through (at least a media
	 * header long), left in place; NULL when there is none. */
	const UINT8 *(*peek)(struct snp_front *f, UINT32 *len);
	/* Drops the frame peek returned. */
	void (*pop)(struct snp_front *f);
	/* Optional (NULL: EFI_UNSUPPORTED after the state checks): Statistics, with
	 * the arguments already checked against the state. */
	EFI_STATUS (*statistics)(struct snp_front *f, bool reset, UINTN *size,
				 EFI_NETWORK_STATISTICS *table);
};

struct snp_front {
	EFI_SIMPLE_NETWORK_PROTOCOL snp;
	/* The driver fills PermanentAddress, CurrentAddress, MacAddressChangeable and
	 * MediaPresentSupported after snp_front_init; the front the rest. */
	EFI_SIMPLE_NETWORK_MODE mode;
	const struct snp_front_ops *ops;
	EFI_TPL lock_tpl;
	/* EFI_SIMPLE_NETWORK_*_INTERRUPT bits since GetStatus last read them: the driver sets
	 * them as it sends and receives. */
	UINT32 interrupts;
};

/* Fills the protocol and the Ethernet fields of its mode and creates WaitForPacket. */
EFI_STATUS snp_front_init(struct snp_front *f, const struct snp_front_ops *ops, EFI_TPL lock_tpl);
/* Takes the device down if it is up and closes WaitForPacket (the driver's Stop). */
void snp_front_fini(struct snp_front *f);

/* ---- Pure logic on Ethernet frames (snp_frame.c; no core, fuzzed) ---- */

/* Whether the receive filters in mode let a frame (len bytes) through: its destination
 * compared with CurrentAddress, broadcast and the multicast list. */
bool snp_frame_accepted(const UINT8 *frame, UINT32 len, const EFI_SIMPLE_NETWORK_MODE *mode);
/* Fills the 14-byte media header at frame: dest, src, protocol (host order, written
 * big-endian). */
void snp_frame_fill_header(UINT8 *frame, const EFI_MAC_ADDRESS *dest, const EFI_MAC_ADDRESS *src,
			   UINT16 protocol);
/* The multicast MAC of a multicast IP address (RFC 1112 6.4 for IPv4, RFC 2464 7 for IPv6).
 * EFI_INVALID_PARAMETER when ip is not a multicast address. */
EFI_STATUS snp_frame_mcast_ip_to_mac(bool ipv6, const EFI_IP_ADDRESS *ip, EFI_MAC_ADDRESS *mac);

#endif
