/* snp-test: EFI_SIMPLE_NETWORK_PROTOCOL (UEFI 2.10, 24.1) on the first NIC, checked from the
 * outside on any firmware. */
#ifndef SNP_TEST_H
#define SNP_TEST_H

#include "../lib/check.h"
#include <efi/protocol/simple_network.h>

/* The interface under test, opened EXCLUSIVE by the app (a network stack that held it
 * BY_DRIVER, OVMF's MNP, is stopped first). */
extern EFI_SIMPLE_NETWORK_PROTOCOL *snp;

/* The state machine and the status of each call in each state (state.c); ends Stopped. */
void snp_check_states(void);
/* Argument checks of an Initialized interface (args.c). */
void snp_check_arguments(void);
/* ARP over QEMU's user network: a request for 10.0.2.2 and its reply (arp.c). */
void snp_check_arp(void);
/* Times a few MiB through Transmit (bench.c). */
void snp_bench(void);

#endif
