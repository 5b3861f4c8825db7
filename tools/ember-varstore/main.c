/* ember-varstore: inspects and edits Ember's variable store offline: the file of
 * `ember-run --vars FILE`, or the QEMU VARS image (build/qemu-x86_64/ember-vars.fd).
 * Exit status: 0 done, 1 the operation failed, 2 usage errors. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"
#include <ember/core/log.h>
#include <ember/lib/format.h>

static const char usage_text[] =
    "usage: ember-varstore FILE COMMAND [ARGUMENTS]\n"
    "       ember-varstore --bench\n"
    "Inspects and edits an Ember UEFI variable store (ember-run --vars FILE, or the QEMU\n"
    "VARS image) offline, with the firmware's own code and rules.\n"
    "Commands:\n"
    "  list                     one line per variable: GUID, attributes, data size, name\n"
    "  get NAME [GUID] [--raw | --out FILE]\n"
    "                           the data as a hex dump (--raw: bytes to stdout)\n"
    "  set NAME [GUID] DATA [--attrs LIST] [--append] [--force]\n"
    "                           DATA is --hex HEX, --string TEXT (UCS-2, terminated),\n"
    "                           --ascii TEXT (terminated) or --file FILE\n"
    "  delete NAME [GUID] [--force]\n"
    "  export OUT               every variable to a text file ('-': stdout)\n"
    "  import IN                restores every variable of such a file ('-': stdin), as\n"
    "                           the firmware writes its own\n"
    "  format                   makes FILE a new, empty store\n"
    "  enroll PK|KEK|db|dbx|dbt [--append] [--owner GUID] INPUT...\n"
    "                           Secure Boot keys: each INPUT a DER or PEM certificate,\n"
    "                           an EFI_SIGNATURE_LIST (.esl) file or a SHA-256 hash in\n"
    "                           hex (db, dbx, dbt), written as the firmware's own, dated\n"
    "                           now; or one signed .auth update (sign-efi-sig-list),\n"
    "                           applied as SetVariable would. --owner: the entries'\n"
    "                           owner (default 5d8e6a21-4c3b-4f0e-9b61-2e7d1a90c453)\n"
    "GUID is 8-4-4-4-12 or 'global' (EFI_GLOBAL_VARIABLE, the default). LIST is a comma-\n"
    "separated set of nv, bs, rt, hr (default nv,bs,rt). Writes follow SetVariable's rules\n"
    "as before ExitBootServices; --force writes as the firmware itself, past the rules for\n"
    "the specification's variables (read-only ones included). A missing FILE is created\n"
    "by set, import, enroll and format.\n"
    "--bench prints the store's latency figures as Markdown table rows.\n"
    "EMBER_VARSTORE_DEBUG=1 in the environment shows the firmware code's debug log (why a\n"
    "signature or a list was refused).\n";

int tool_error(const char *fmt, ...)
{
	va_list ap;

	fputs("ember-varstore: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

_Noreturn void tool_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("ember-varstore: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'ember-varstore --help'.\n", stderr);
	exit(2);
}

const char *status_text(EFI_STATUS status)
{
	const char *name = efi_status_name(status);

	return name ? name : "error";
}

static int run(const char *path, const char *command, int argc, char **argv)
{
	struct tool_store t;
	int status;

	if (!strcmp(command, "format")) {
		store_format(&t, path);
		return store_close(&t);
	}
	store_open(&t, path,
		   !strcmp(command, "set") || !strcmp(command, "import") ||
		       !strcmp(command, "enroll"));
	if (!strcmp(command, "list"))
		status = cmd_list(&t);
	else if (!strcmp(command, "get"))
		status = cmd_get(&t, argc, argv);
	else if (!strcmp(command, "set"))
		status = cmd_set(&t, argc, argv);
	else if (!strcmp(command, "delete"))
		status = cmd_delete(&t, argc, argv);
	else if (!strcmp(command, "export"))
		status = cmd_export(&t, argc, argv);
	else if (!strcmp(command, "import"))
		status = cmd_import(&t, argc, argv);
	else if (!strcmp(command, "enroll"))
		status = cmd_enroll(&t, argc, argv);
	else
		tool_usage_error("unknown command '%s'", command);
	if (status)
		t.dirty = false; /* a failed command leaves the file as it was */
	return store_close(&t) ? 1 : status;
}

int main(int argc, char **argv)
{
	if (getenv("EMBER_VARSTORE_DEBUG"))
		log_threshold = LOG_LEVEL_DEBUG;
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--bench"))
		return cmd_bench();
	if (argc < 3)
		tool_usage_error("give a store FILE and a COMMAND");
	return run(argv[1], argv[2], argc - 3, argv + 3);
}
