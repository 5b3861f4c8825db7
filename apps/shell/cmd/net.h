/* Helpers of the network commands (ifconfig, ping, tftp, http): the interfaces, which are
 * the handles with EFI_IP4_CONFIG2_PROTOCOL named by its InterfaceInfo ("eth0"), and
 * IPv4 addresses as text. */
#ifndef SHELL_CMD_NET_H
#define SHELL_CMD_NET_H

#include "../internal.h"
#include <efi/protocol/ip4_config2.h>

struct net_if {
	EFI_HANDLE handle;
	EFI_IP4_CONFIG2_PROTOCOL *config;
	EFI_IP4_CONFIG2_INTERFACE_INFO info; /* without its route table */
	bool has_route_gateway;		     /* the route table has a default route */
	EFI_IPv4_ADDRESS route_gateway;	     /* ... through this gateway */
};

/* The interfaces, up to max, in out; returns how many there are. */
UINTN net_if_list(struct net_if *out, UINTN max);
/* The interface called name (NULL: the first); reports "cmd: no network interface" or
 * "cmd: no interface NAME" and fails with EFI_NOT_FOUND. */
EFI_STATUS net_if_find(struct shell *sh, const char *cmd, const CHAR16 *name, struct net_if *out);
/* Makes sure the interface has an IPv4 address, asking DHCP when its policy is DHCP and it
 * has none yet; reports and fails with EFI_NO_MAPPING when it has none. */
EFI_STATUS net_if_need_address(struct shell *sh, const char *cmd, struct net_if *nif);
/* After DHCP was asked for: waits up to 10 s for the address (firmware may run DHCP in the
 * background); true once the interface has one. */
bool net_if_wait_address(struct net_if *nif);
/* The protocol guid (called what in messages) on the interface's handle or on a child of
 * it; reports when there is none. */
EFI_STATUS net_if_protocol(struct shell *sh, const char *cmd, struct net_if *nif, EFI_GUID *guid,
			   const char *what, void **out);
/* Reads a dotted IPv4 address (four decimal numbers 0-255, nothing else). */
bool net_parse_ipv4(const CHAR16 *s, EFI_IPv4_ADDRESS *out);
/* What a network status means, in words. */
const char *net_status_text(EFI_STATUS status);

#endif
