/* snp-probe: what a network stack does first on an EFI_SIMPLE_NETWORK_PROTOCOL, checked.
 * The steps, named on the command line (default "states arp dhcp"):
 *   states     the state machine (UEFI 2.10, 24.1) and the statuses of bad arguments
 *   arp        ARP for 10.0.2.2 and get the reply
 *   dhcp       DHCPDISCOVER, and a DHCPOFFER of 10.0.2.15 back
 *   tick=PORT  an echo from 10.0.2.2:PORT arrives while the probe only stalls
 *   queues     transmit and receive queues at their bounds, and the statistics
 *   arp-count  100 ARP requests, one try each: prints how many were answered (loss=)
 *   udp-echo=PORT  a datagram to 10.0.2.2:PORT, and its echo back
 *   tftp=NAME  the first block of NAME from the TFTP server on 10.0.2.2 (tftp=DIR)
 *   bench-arp, bench-udp=PORT  throughput (bench.c)
 * Ends with "snp-probe: N passed, M failed". */
#ifndef SNP_PROBE_H
#define SNP_PROBE_H

#include "../lib/check.h"
#include <efi/protocol/simple_network.h>
#include "pure/frames.h"

extern EFI_SIMPLE_NETWORK_PROTOCOL *probe_snp;
extern EFI_HANDLE probe_handle;

/* The addresses of the user network (QEMU's and ember-run's --net user). */
extern const UINT8 probe_guest_ip[4], probe_host_ip[4];

/* Steps (states.c, exchange.c). */
void probe_states(void);
void probe_arp(void);
void probe_dhcp(void);
void probe_arp_count(void);
void probe_udp_echo(UINT16 port);
void probe_tftp(const char *name);
void probe_queues(void);
void probe_tick(UINT16 port);
/* Throughput for scripts/bench-net (bench.c). */
void probe_bench_arp(void);
void probe_bench_udp(UINT16 port);

/* Brings the interface to Initialized with unicast and broadcast reception. */
bool probe_bring_up(void);

/* The host's MAC address, from an ARP exchange (which also tells the network ours). */
bool probe_host_mac(UINT8 mac[6]);

/* Transmits frame and waits until GetStatus hands the buffer back. */
bool probe_send(void *frame, UINTN length, UINTN header_size, UINT16 protocol);
/* Receives frames (waiting on WaitForPacket) for up to timeout_ms until accept takes one
 * (NULL: the first frame); false when none did. */
bool probe_receive(UINT8 *frame, UINTN *length, UINT32 timeout_ms,
		   bool (*accept)(const UINT8 *frame, UINTN length, void *ctx), void *ctx);

#endif
