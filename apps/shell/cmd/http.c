/* http: downloads a URL through Ember's network stack (EMBER_NET_TOOLS_PROTOCOL.HttpGet)
 * into a file of the current file system, like the UEFI Shell's http. */
#include "net.h"
#include "net_file.h"
#include "../../lib/tsc.h"
#include <ember/net/net_tools.h>

/* The local name from the URL's path (allocated): its last part without a query or
 * fragment, index.html for none. */
static CHAR16 *http_local_name(const CHAR16 *url)
{
	static const CHAR16 fallback[] = u"index.html";
	const CHAR16 *path = url, *name;
	CHAR16 *out;
	UINTN n = 0;

	/* Past "http://host" the path starts at the next '/'; it ends at '?' or '#'. */
	for (int slashes = 0; *path && slashes < 3; path++)
		if (*path == '/')
			slashes++;
	while (path[n] && path[n] != '?' && path[n] != '#')
		n++;
	out = app_alloc((MAX(n, ARRAY_SIZE(fallback)) + 1) * sizeof(CHAR16));
	if (!out)
		return NULL;
	mem_copy(out, path, n * sizeof(CHAR16));
	out[n] = 0;
	/* The name lies inside out, or is the fallback: either fits (moves may overlap). */
	name = net_local_name(out, fallback);
	mem_copy(out, name, (str16_len(name) + 1) * sizeof(CHAR16));
	return out;
}

/* Whether the URL's host is a dotted IPv4 address (then a not-found is the server's 404,
 * never a name the name server does not know). */
static bool host_is_address(const CHAR16 *url)
{
	const CHAR16 *p = url + 7; /* past "http://" */
	CHAR16 host[16];
	EFI_IPv4_ADDRESS ip;
	UINTN n = 0;

	for (; p[n] && p[n] != ':' && p[n] != '/' && p[n] != '?' && p[n] != '#'; n++) {
		if (n == ARRAY_SIZE(host) - 1)
			return false; /* longer than any dotted address */
		host[n] = p[n];
	}
	host[n] = 0;
	return net_parse_ipv4(host, &ip);
}

static EFI_STATUS fetch(struct shell *sh, EMBER_NET_TOOLS_PROTOCOL *tools, const CHAR16 *url,
			const CHAR16 *local)
{
	char *ascii = net_ascii(url);
	void *body = NULL;
	UINT64 size = 0, start;
	EFI_STATUS status;

	if (!ascii) {
		sh_error(sh, "http: the URL must be printable ASCII\n");
		return EFI_INVALID_PARAMETER;
	}
	start = app_tsc();
	status = tools->HttpGet(tools, ascii, &body, &size);
	if (EFI_ERROR(status)) {
		sh_error(sh, "http: %ls: %s\n", url,
			 status != EFI_NOT_FOUND ? net_status_text(status)
			 : host_is_address(url)
			     ? "404 Not Found"
			     : "404 Not Found, or the name server does not know the host");
		goto out;
	}
	status = net_save(sh, "http", local, body, size, app_tsc() - start);
out:
	if (body)
		app_bs->FreePool(body);
	app_free(ascii);
	return status;
}

static bool is_http_url(const CHAR16 *s)
{
	static const char prefix[] = "http://";

	for (UINTN i = 0; prefix[i]; i++) {
		CHAR16 c = s[i] >= 'A' && s[i] <= 'Z' ? s[i] - 'A' + 'a' : s[i];
		if (c != prefix[i])
			return false;
	}
	return s[7] != 0;
}

static EFI_STATUS cmd_http(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {{"-i", SH_OPT_VALUE}, {NULL}};
	static EFI_GUID tools_guid = EMBER_NET_TOOLS_PROTOCOL_GUID;
	EMBER_NET_TOOLS_PROTOCOL *tools;
	struct net_if nif;
	struct sh_args a;
	CHAR16 *local;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a);

	if (EFI_ERROR(status))
		return status;
	if (a.count < 1 || a.count > 2) {
		sh_error(sh, "http: give a URL and maybe a local name\n");
		return EFI_INVALID_PARAMETER;
	}
	if (!is_http_url(a.pos[0])) {
		sh_error(sh, "http: '%ls' is not an http:// URL (there is no TLS for https)\n",
			 a.pos[0]);
		return EFI_INVALID_PARAMETER;
	}
	status = net_if_find(sh, "http", sh_args_value(&a, "-i"), &nif);
	if (!EFI_ERROR(status))
		status = net_if_protocol(
		    sh, "http", &nif, &tools_guid,
		    "EMBER_NET_TOOLS_PROTOCOL: http needs Ember's network stack", (void **)&tools);
	if (!EFI_ERROR(status))
		status = net_if_need_address(sh, "http", &nif);
	if (EFI_ERROR(status))
		return status;
	if (a.count == 2)
		return fetch(sh, tools, a.pos[0], a.pos[1]);
	local = http_local_name(a.pos[0]);
	status = local ? fetch(sh, tools, a.pos[0], local) : EFI_OUT_OF_RESOURCES;
	app_free(local);
	return status;
}

SH_COMMAND(http, "http", "Downloads a URL over HTTP",
	   "http [-i name] url [local]\n"
	   "  GETs url (http:// only, redirects followed) and writes the body as local (by\n"
	   "  default the last part of the URL's path, or index.html) in the current\n"
	   "  directory, then shows its size and the rate.\n"
	   "  -i    the interface (eth0 ...; the first by default)\n",
	   cmd_http);
