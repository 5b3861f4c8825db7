/* The hosted network (`ember-run --net user`): its options (net_options.c), the link to
 * libslirp (net_slirp.c), the NIC with its frame queues (net_nic.c) and the
 * EFI_SIMPLE_NETWORK_PROTOCOL over it (net_snp.c). */
#ifndef EMBER_HOSTED_NET_H
#define EMBER_HOSTED_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <efi/protocol/device_path.h>
#include <efi/protocol/simple_network.h>
#include <ember/drivers/snp_front.h>

#define NET_MAC_SIZE 6
#define NET_HEADER_SIZE 14 /* Ethernet: destination, source, EtherType */
#define NET_MTU 1500
#define NET_FRAME_MAX (NET_HEADER_SIZE + NET_MTU)
#define NET_RX_SLOTS 1024 /* frames waiting for Receive; more are dropped, as a NIC would */
#define NET_TX_SLOTS 64	  /* sent buffers waiting for GetStatus to recycle them */

/* What --net user[,OPTIONS] asked for. */
struct net_options {
	bool enabled;
	const char *tftp;     /* tftp=DIR, made absolute; NULL: no TFTP server */
	const char *bootfile; /* bootfile=NAME (DHCP's file name), or NULL */
	UINT32 loss;	      /* loss=PERCENT: share of frames dropped in each direction */
	UINT64 seed;	      /* seed=N of the loss generator */
	UINT8 mac[NET_MAC_SIZE];
};
extern struct net_options net_options;

/* ---- The user-mode network (net_slirp.c) ---- */

/* Called for each frame the network sends to the NIC. */
typedef void (*net_deliver_fn)(const UINT8 *frame, size_t length);

/* Creates the network from net_options; false (having said why) when libslirp refuses. */
bool net_slirp_start(net_deliver_fn deliver);
/* A frame from the NIC onto the network (or lost, under loss=). */
void net_slirp_send(const UINT8 *frame, size_t length);
/* Lets the network run: its sockets, timers and replies (which arrive through deliver). */
void net_slirp_poll(void);

/* ---- The NIC (net_nic.c) ---- */

struct net_frame {
	UINT16 length;
	UINT8 data[NET_FRAME_MAX];
};

#pragma pack(push, 1)
/* VenHw(EMBER_HOSTED_NET_GUID, 0)/MAC(address, IfType 1) */
struct net_path {
	VENDOR_DEVICE_PATH vendor;
	UINT32 index;
	MAC_ADDR_DEVICE_PATH mac;
	EFI_DEVICE_PATH_PROTOCOL end;
};
#pragma pack(pop)

struct net_nic {
	struct snp_front front;
	EFI_NETWORK_STATISTICS stats;
	struct net_path path;
	EFI_HANDLE handle;
	EFI_EVENT tick; /* periodic: lets the network run between calls */
	void *tx[NET_TX_SLOTS];
	UINT32 tx_head, tx_count;
	struct net_frame *rx; /* NET_RX_SLOTS frames */
	UINT32 rx_head, rx_count;
};

/* The one NIC (NULL without --net). */
extern struct net_nic *net_nic;

/* The next received frame, or NULL; net_nic_pop drops it. */
struct net_frame *net_nic_peek(struct net_nic *nic);
void net_nic_pop(struct net_nic *nic);
/* Forgets every received frame and every buffer waiting to be recycled. */
void net_nic_flush(struct net_nic *nic);
/* Runs the network once (at TPL_NOTIFY). */
void net_nic_pump(struct net_nic *nic);
/* Starts and stops the periodic pump (Initialize, Shutdown). */
void net_nic_tick_enable(struct net_nic *nic, bool on);
/* Counts a frame sent and puts it on the network. */
void net_nic_send(struct net_nic *nic, const UINT8 *frame, size_t length);

/* ---- EFI_SIMPLE_NETWORK_PROTOCOL (net_snp.c) ---- */
/* Sets up the NIC's SNP front end (snp_front_init) with the given permanent address. */
EFI_STATUS net_snp_init(struct net_nic *nic, const UINT8 mac[NET_MAC_SIZE]);
#endif
