/* net-load: drives the firmware's HTTP boot from a program, for the tests and the bench.
 *   net-load get URL     LoadFile(BootPolicy=TRUE) on the NIC with the remaining path
 *                        IPv4()/Uri(URL), as a boot option carrying the URL would: prints
 *                        the size, CRC-32 and rate of what came
 *   net-load boot URL    LoadImage(BootPolicy=TRUE) of NIC/IPv4()/Uri(URL), then StartImage
 *   net-load boot        the same with the NIC's HTTP boot child (the URL DHCP names)
 *   net-load uri-option URL
 *                        writes Boot0080 "HTTP URL" with the path NIC/IPv4()/Uri(URL) (as a
 *                        user's URL boot option is), sets BootNext to it and resets: the
 *                        boot manager then boots the URL (on Ember and on OVMF alike)
 * Without arguments (booted as removable media) the command line is read from \NETLOAD.TXT
 * on the program's own volume.
 * Prints "net-load: ok" at the end of a step that worked, "net-load: failed" otherwise. */
#include "../lib/app.h"
#include "../lib/tsc.h"
#include <efi/protocol/load_file.h>
#include <efi/protocol/simple_file_system.h>
#include <efi/protocol/simple_network.h>
#include <ember/lib/devpath_node.h>

static EFI_GUID lf_guid = EFI_LOAD_FILE_PROTOCOL_GUID;
static EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;

/* The last node before the end, NULL for an empty path. */
static EFI_DEVICE_PATH_PROTOCOL *last_node(EFI_DEVICE_PATH_PROTOCOL *p)
{
	EFI_DEVICE_PATH_PROTOCOL *last = NULL;

	for (; !dp_is_end(p); p = dp_next(p))
		last = p;
	return last;
}

/* The handle with LoadFile whose path ends as wanted: in Uri() (HTTP child) or MAC() (NIC). */
static EFI_HANDLE find_load_file(UINT8 subtype, EFI_DEVICE_PATH_PROTOCOL **path)
{
	EFI_HANDLE *handles = NULL, found = NULL;
	UINTN count = 0;

	if (EFI_ERROR(app_bs->LocateHandleBuffer(ByProtocol, &lf_guid, NULL, &count, &handles)))
		return NULL;
	for (UINTN i = 0; i < count && !found; i++) {
		EFI_DEVICE_PATH_PROTOCOL *p, *last;
		if (EFI_ERROR(app_bs->HandleProtocol(handles[i], &dp_guid, (void **)&p)))
			continue;
		last = last_node(p);
		if (last && last->Type == MESSAGING_DEVICE_PATH && last->SubType == subtype) {
			found = handles[i];
			*path = p;
		}
	}
	app_bs->FreePool(handles);
	return found;
}

/* IPv4()/Uri(url)/End in a new pool block. */
static EFI_DEVICE_PATH_PROTOCOL *uri_tail(const char *url)
{
	size_t n = str8_len(url), size = sizeof(IPv4_DEVICE_PATH) + sizeof(URI_DEVICE_PATH) + n + 4;
	UINT8 *p = app_zalloc(size);
	IPv4_DEVICE_PATH *ip = (IPv4_DEVICE_PATH *)p;
	EFI_DEVICE_PATH_PROTOCOL *uri = (EFI_DEVICE_PATH_PROTOCOL *)(p + sizeof(*ip));

	if (!p)
		return NULL;
	dp_set_node(&ip->Header, MESSAGING_DEVICE_PATH, MSG_IPv4_DP, sizeof(*ip));
	ip->Protocol = 6;
	dp_set_node(uri, MESSAGING_DEVICE_PATH, MSG_URI_DP, sizeof(URI_DEVICE_PATH) + n);
	mem_copy((UINT8 *)uri + sizeof(URI_DEVICE_PATH), url, n);
	dp_set_end(dp_next(uri));
	return (EFI_DEVICE_PATH_PROTOCOL *)p;
}

static bool get(const char *url)
{
	EFI_DEVICE_PATH_PROTOCOL *nic_path, *tail = uri_tail(url);
	EFI_HANDLE nic = find_load_file(MSG_MAC_ADDR_DP, &nic_path);
	EFI_LOAD_FILE_PROTOCOL *lf;
	UINTN size = 0;
	UINT64 start, ticks;
	UINT32 crc = 0;
	void *buf;
	EFI_STATUS status;

	if (!nic || !tail || EFI_ERROR(app_bs->HandleProtocol(nic, &lf_guid, (void **)&lf))) {
		app_print("net-load: no NIC with LoadFile\n");
		return false;
	}
	start = app_tsc();
	status = lf->LoadFile(lf, tail, true, &size, NULL);
	if (status != EFI_BUFFER_TOO_SMALL) {
		app_print("net-load: asking the size: %r\n", status);
		return false;
	}
	buf = app_alloc(size ? size : 1);
	if (!buf)
		return false;
	status = lf->LoadFile(lf, tail, true, &size, buf);
	ticks = app_tsc() - start;
	if (EFI_ERROR(status)) {
		app_print("net-load: loading: %r\n", status);
		return false;
	}
	app_bs->CalculateCrc32(buf, size, &crc);
	app_print("net-load: %llu bytes, crc32 %08x, %r, %llu ms, %llu MB/s\n",
		  (unsigned long long)size, crc, status,
		  (unsigned long long)(ticks * 1000 / app_tsc_hz()),
		  (unsigned long long)(ticks ? (UINT64)size * app_tsc_hz() / ticks / 1000000 : 0));
	app_free(buf);
	app_free(tail);
	return true;
}

static bool boot(const char *url)
{
	EFI_DEVICE_PATH_PROTOCOL *path, *nic_path, *tail;
	EFI_HANDLE image = NULL;
	EFI_STATUS status;
	UINTN nic_size, tail_size;

	if (!url) {
		if (!find_load_file(MSG_URI_DP, &path)) {
			app_print("net-load: no HTTP boot child\n");
			return false;
		}
	} else {
		if (!find_load_file(MSG_MAC_ADDR_DP, &nic_path) || !(tail = uri_tail(url)))
			return false;
		nic_size = dp_size(nic_path) - 4;
		tail_size = dp_size(tail);
		path = app_alloc(nic_size + tail_size);
		mem_copy(path, nic_path, nic_size);
		mem_copy((UINT8 *)path + nic_size, tail, tail_size);
	}
	status = app_bs->LoadImage(true, app_image, path, NULL, 0, &image);
	if (EFI_ERROR(status)) {
		app_print("net-load: LoadImage: %r\n", status);
		return false;
	}
	status = app_bs->StartImage(image, NULL, NULL);
	app_print("net-load: the image returned %r\n", status);
	return !EFI_ERROR(status);
}

/* The device path of the first SimpleNetwork handle that ends in MAC(), connecting every
 * controller first (a firmware may not have started its network drivers). */
static EFI_DEVICE_PATH_PROTOCOL *nic_path(void)
{
	EFI_GUID snp_guid = EFI_SIMPLE_NETWORK_PROTOCOL_GUID;
	EFI_HANDLE *handles = NULL;
	EFI_DEVICE_PATH_PROTOCOL *found = NULL;
	UINTN count = 0;

	if (!EFI_ERROR(app_bs->LocateHandleBuffer(AllHandles, NULL, NULL, &count, &handles))) {
		for (UINTN i = 0; i < count; i++)
			app_bs->ConnectController(handles[i], NULL, NULL, true);
		app_bs->FreePool(handles);
	}
	if (EFI_ERROR(app_bs->LocateHandleBuffer(ByProtocol, &snp_guid, NULL, &count, &handles)))
		return NULL;
	for (UINTN i = 0; i < count && !found; i++) {
		EFI_DEVICE_PATH_PROTOCOL *p, *last;
		if (EFI_ERROR(app_bs->HandleProtocol(handles[i], &dp_guid, (void **)&p)))
			continue;
		last = last_node(p);
		if (last && last->Type == MESSAGING_DEVICE_PATH && last->SubType == MSG_MAC_ADDR_DP)
			found = p;
	}
	app_bs->FreePool(handles);
	return found;
}

static bool uri_option(const char *url)
{
	EFI_GUID global = EFI_GLOBAL_VARIABLE;
	UINT32 attrs = EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS |
		       EFI_VARIABLE_RUNTIME_ACCESS;
	static const CHAR16 desc[] = u"HTTP URL";
	EFI_DEVICE_PATH_PROTOCOL *nic = nic_path(), *tail = uri_tail(url);
	UINTN nic_size, tail_size, size;
	UINT16 next = 0x0080;
	UINT8 *option;
	EFI_STATUS status;

	if (!nic || !tail) {
		app_print("net-load: no network interface\n");
		return false;
	}
	nic_size = dp_size(nic) - 4;
	tail_size = dp_size(tail);
	size = 6 + sizeof(desc) + nic_size + tail_size;
	option = app_zalloc(size);
	if (!option)
		return false;
	option[0] = 1; /* LOAD_OPTION_ACTIVE */
	option[4] = (UINT8)(nic_size + tail_size);
	option[5] = (UINT8)((nic_size + tail_size) >> 8);
	mem_copy(option + 6, desc, sizeof(desc));
	mem_copy(option + 6 + sizeof(desc), nic, nic_size);
	mem_copy(option + 6 + sizeof(desc) + nic_size, tail, tail_size);
	status = app_rt->SetVariable(u"Boot0080", &global, attrs, size, option);
	if (!EFI_ERROR(status))
		status = app_rt->SetVariable(u"BootNext", &global, attrs, sizeof(next), &next);
	app_print("net-load: Boot0080 for %s: %r\n", url, status);
	if (EFI_ERROR(status))
		return false;
	app_rt->ResetSystem(EfiResetCold, EFI_SUCCESS, 0, NULL);
	return false;
}

/* The first line of \NETLOAD.TXT beside the program, as its command line. */
static void command_file(char *line, size_t size)
{
	EFI_GUID li_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID,
		 fs_guid = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID;
	EFI_LOADED_IMAGE_PROTOCOL *li;
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *fs;
	EFI_FILE_PROTOCOL *root, *file;
	UINTN n = size - 1;

	if (EFI_ERROR(app_bs->HandleProtocol(app_image, &li_guid, (void **)&li)) ||
	    EFI_ERROR(app_bs->HandleProtocol(li->DeviceHandle, &fs_guid, (void **)&fs)) ||
	    EFI_ERROR(fs->OpenVolume(fs, &root)))
		return;
	if (!EFI_ERROR(root->Open(root, &file, u"\\NETLOAD.TXT", EFI_FILE_MODE_READ, 0))) {
		if (!EFI_ERROR(file->Read(file, &n, line))) {
			line[n] = 0;
			for (UINTN i = 0; i < n; i++)
				if (line[i] == '\r' || line[i] == '\n')
					line[i] = 0;
		}
		file->Close(file);
	}
	root->Close(root);
}

/* The words of line after the program's name: the step and its URL. */
static int split(char *line, char **words, int max)
{
	int n = 0;
	char *p = line;

	while (*p && n < max) {
		while (*p == ' ')
			*p++ = 0;
		if (!*p)
			break;
		words[n++] = p;
		while (*p && *p != ' ')
			p++;
	}
	return n;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	static char line[2048];
	char *words[4];
	int n;
	bool ok = false;

	app_init(image, st);
	app_command_line(line, sizeof(line));
	n = split(line, words, 4);
	if (n < 2) {
		command_file(line, sizeof(line));
		n = split(line, words + 1, 3) + 1;
	}
	if (n >= 3 && !str8_cmp(words[1], "get"))
		ok = get(words[2]);
	else if (n >= 3 && !str8_cmp(words[1], "uri-option"))
		ok = uri_option(words[2]);
	else if (n >= 2 && !str8_cmp(words[1], "boot"))
		ok = boot(n >= 3 ? words[2] : NULL);
	else
		app_print("usage: net-load get URL | boot [URL]\n");
	app_print("net-load: %s\n", ok ? "ok" : "failed");
	return ok ? EFI_SUCCESS : EFI_ABORTED;
}
