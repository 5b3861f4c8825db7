/* ping: ICMP echo requests to an IPv4 address through Ember's network stack
 * (EMBER_NET_TOOLS_PROTOCOL.Ping), reporting each reply and the round trips. */
#include "net.h"
#include <ember/net/net_tools.h>

#define PING_TIMEOUT_MS 1000
#define PING_DEFAULT_COUNT 10

static EFI_STATUS cmd_ping(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {{"-n", SH_OPT_VALUE}, {"-i", SH_OPT_VALUE}, {NULL}};
	static EFI_GUID tools_guid = EMBER_NET_TOOLS_PROTOCOL_GUID;
	EMBER_NET_TOOLS_PROTOCOL *tools;
	struct net_if nif;
	struct sh_args a;
	EFI_IPv4_ADDRESS ip;
	UINT64 count = PING_DEFAULT_COUNT, got = 0, sum = 0, min = ~0ULL, max = 0;
	const CHAR16 *v;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a);

	if (EFI_ERROR(status))
		return status;
	if ((v = sh_args_value(&a, "-n")) &&
	    (!sh_parse_u64(v, false, &count) || count == 0 || count > 65535)) {
		sh_error(sh, "ping: -n needs a count from 1 to 65535, not '%ls'\n", v);
		return EFI_INVALID_PARAMETER;
	}
	if (a.count != 1 || !net_parse_ipv4(a.pos[0], &ip)) {
		sh_error(sh, "ping: give one IPv4 address (ping [-n count] [-i name] address)\n");
		return EFI_INVALID_PARAMETER;
	}
	status = net_if_find(sh, "ping", sh_args_value(&a, "-i"), &nif);
	if (!EFI_ERROR(status))
		status = net_if_protocol(
		    sh, "ping", &nif, &tools_guid,
		    "EMBER_NET_TOOLS_PROTOCOL: ping needs Ember's network stack", (void **)&tools);
	if (!EFI_ERROR(status))
		status = net_if_need_address(sh, "ping", &nif);
	if (EFI_ERROR(status))
		return status;
	sh_print(sh, "Ping %ls 32 data bytes\n", a.pos[0]);
	for (UINT64 seq = 1; seq <= count && !sh_interrupted(sh); seq++) {
		UINT32 rtt = 0;
		status = tools->Ping(tools, &ip, (UINT16)seq, PING_TIMEOUT_MS, &rtt);
		if (status == EFI_TIMEOUT) {
			sh_print(sh, "Echo request sequence %llu timed out\n", seq);
			continue;
		}
		if (EFI_ERROR(status)) {
			/* No ARP answer (or no address): the next requests would fare the same. */
			sh_error(sh, "ping: %ls: %s\n", a.pos[0], net_status_text(status));
			return status;
		}
		got++;
		sum += rtt;
		min = MIN(min, (UINT64)rtt);
		max = MAX(max, (UINT64)rtt);
		sh_print(sh, "32 bytes from %ls: icmp_seq=%llu time=%llu.%03llu ms\n", a.pos[0],
			 seq, (UINT64)rtt / 1000, (UINT64)rtt % 1000);
	}
	sh_print(sh, "%llu packets transmitted, %llu received, %llu%% packet loss\n", count, got,
		 (count - got) * 100 / count);
	if (!got) {
		sh_error(sh, "ping: %ls: no echo reply\n", a.pos[0]);
		return EFI_TIMEOUT;
	}
	sh_print(sh, "round trip min/avg/max = %llu/%llu/%llu us\n", min, sum / got, max);
	return EFI_SUCCESS;
}

SH_COMMAND(ping, "ping", "Sends ICMP echo requests to an IPv4 address",
	   "ping [-n count] [-i name] address\n"
	   "  Sends ICMP echo requests (32 bytes of data, one second to answer each) and shows\n"
	   "  each reply's round trip, then the loss. Fails when no reply came.\n"
	   "  -n    how many requests (1-65535, 10 by default)\n"
	   "  -i    the interface (eth0 ...; the first by default)\n",
	   cmd_ping);
