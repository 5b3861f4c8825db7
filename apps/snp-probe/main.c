/* snp-probe: finds the SimpleNetwork interface, checks its device path ends in a MAC()
 * node of its permanent address, then runs the steps the command line names (probe.h). */
#include "probe.h"
#include <ember/lib/devpath_node.h>

EFI_SIMPLE_NETWORK_PROTOCOL *probe_snp;
EFI_HANDLE probe_handle;
const UINT8 probe_guest_ip[4] = {10, 0, 2, 15}, probe_host_ip[4] = {10, 0, 2, 2};

static bool find_snp(void)
{
	EFI_GUID guid = EFI_SIMPLE_NETWORK_PROTOCOL_GUID;
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;

	if (!CHECK_STATUS(app_bs->LocateHandleBuffer(ByProtocol, &guid, NULL, &count, &handles),
			  EFI_SUCCESS))
		return false;
	probe_handle = handles[0];
	app_bs->FreePool(handles);
	return CHECK_STATUS(app_bs->HandleProtocol(probe_handle, &guid, (void **)&probe_snp),
			    EFI_SUCCESS);
}

/* The last node before the end: MAC(PermanentAddress, IfType). */
static void check_device_path(void)
{
	EFI_GUID guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
	EFI_DEVICE_PATH_PROTOCOL *node, *last = NULL;
	MAC_ADDR_DEVICE_PATH *mac;

	if (!CHECK_STATUS(app_bs->HandleProtocol(probe_handle, &guid, (void **)&node), EFI_SUCCESS))
		return;
	for (; !dp_is_end(node); node = dp_next(node))
		last = node;
	if (!CHECK(last && last->Type == MESSAGING_DEVICE_PATH &&
		   last->SubType == MSG_MAC_ADDR_DP && dp_node_length(last) == sizeof(*mac)))
		return;
	mac = (MAC_ADDR_DEVICE_PATH *)last;
	CHECK(!mem_cmp(mac->MacAddress.Addr, probe_snp->Mode->PermanentAddress.Addr, 6));
	CHECK_EQ(mac->IfType, probe_snp->Mode->IfType);
	CHECK_EQ(mac->IfType, IF_TYPE_ETHERNET);
}

static bool word_is(const char *word, size_t len, const char *name)
{
	return len == str8_len(name) && !str8_ncmp(word, name, len);
}

/* "NAME=PORT": runs step with the port. */
static bool port_step(const char *word, size_t len, const char *name, void (*step)(UINT16))
{
	size_t n = str8_len(name);
	UINT32 port = 0;

	if (len <= n || str8_ncmp(word, name, n))
		return false;
	for (size_t i = n; i < len; i++) {
		if (word[i] < '0' || word[i] > '9' ||
		    (port = port * 10 + (UINT32)(word[i] - '0')) > 65535)
			return CHECK_FAIL("bad port in %.*s", (int)len, word);
	}
	step((UINT16)port);
	return true;
}

/* "tftp=NAME" */
static bool tftp_step(const char *word, size_t len)
{
	char name[128];

	if (len <= 5 || len - 5 >= sizeof(name) || str8_ncmp(word, "tftp=", 5))
		return false;
	mem_copy(name, word + 5, len - 5);
	name[len - 5] = 0;
	probe_tftp(name);
	return true;
}

/* Runs one step; false for a word that names none (the program's own name). */
static bool run_step(const char *word, size_t len)
{
	if (tftp_step(word, len) || port_step(word, len, "udp-echo=", probe_udp_echo) ||
	    port_step(word, len, "bench-udp=", probe_bench_udp) ||
	    port_step(word, len, "tick=", probe_tick))
		return true;
	if (word_is(word, len, "states"))
		probe_states();
	else if (word_is(word, len, "arp"))
		probe_arp();
	else if (word_is(word, len, "dhcp"))
		probe_dhcp();
	else if (word_is(word, len, "arp-count"))
		probe_arp_count();
	else if (word_is(word, len, "queues"))
		probe_queues();
	else if (word_is(word, len, "bench-arp"))
		probe_bench_arp();
	else
		return false;
	return true;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	char line[256];
	bool any = false;

	app_init(image, st);
	app_bs->SetWatchdogTimer(0, 0, 0, NULL);
	if (find_snp()) {
		check_device_path();
		app_command_line(line, sizeof(line));
		for (char *word = line; *word;) {
			char *end = word;
			while (*end && *end != ' ')
				end++;
			any |= run_step(word, (size_t)(end - word));
			word = *end ? end + 1 : end;
		}
		if (!any) {
			probe_states();
			probe_arp();
			probe_dhcp();
		}
	}
	check_print_summary("snp-probe");
	return check_totals.failed ? EFI_DEVICE_ERROR : EFI_SUCCESS;
}
