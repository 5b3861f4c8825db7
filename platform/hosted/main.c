/* ember-run: runs an EFI program as a Linux process on Ember's core.
 *   ember-run [options] APP.efi [ARGS...]
 * Exit status: 0 when the program returns EFI_SUCCESS, 1 when it returns an error, 2 for
 * usage errors and images that cannot load, 3 when the program crashes (under --keep-going
 * when APP itself crashed: a program it started that crashes only returns EFI_ABORTED). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "hosted.h"
#include <ember/drivers/console_splitter.h>
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/driver.h>
#include <ember/core/init.h>
#include <ember/core/log.h>
#include <ember/core/trace.h>
#include <ember/lib/str.h>
#include <ember/lib/guids.h>

#define RAM_BASE 0x100000ULL /* 1 MiB up: page 0 stays unmapped to catch NULL */
#define DEFAULT_RAM_MIB 1024
#define MAX_ARGS_UNITS 32768
#define GOP_MIN 64
#define GOP_MAX 8192

struct hosted_options hosted_options;

static struct {
	UINT32 gop_width, gop_height;
	const char *esp;
	UINT64 ram_mib;
	int first_arg, argc;
	char **argv;
	UINT32 esp_position;		     /* how many --disk options came before --esp */
	bool gdb, gdb_print, break_at_entry; /* --gdb, --gdb=print, --break-at-entry */
} opt = {1024, 768, NULL, DEFAULT_RAM_MIB, 0, 0, NULL, 0, false, false, false};

static const char *vars_file;  /* --vars FILE; NULL: a new store in RAM */
static const char *tpm_socket; /* --tpm SOCKET; NULL: no TPM */
static bool screen_console;    /* --screen */
static bool firmware_ui;       /* --firmware-ui: APP is the firmware's own setup program */
#define MAX_DRIVERS 8
static const char *driver_files[MAX_DRIVERS]; /* --driver: started before APP */
static int driver_count;

static const char usage_text[] =
    "usage: ember-run [options] APP.efi [ARGS...]\n"
    "Runs an EFI program on Ember's UEFI core, as a Linux process.\n"
    "  --esp DIR             a host directory as a read-write file system volume; when\n"
    "                        APP lies in it, APP is loaded from it\n"
    "  --disk IMAGE[:ro]     a raw disk image (or .iso) as a block device; repeatable.\n"
    "                        File systems on --esp and --disk devices are fs0:, fs1: ...\n"
    "                        in command-line order; APP may be 'fs0:\\EFI\\BOOT\\X.EFI'\n"
    "  --vars FILE           the UEFI variable store, kept in FILE (created when missing;\n"
    "                        the bytes of a VARS flash). Without it variables start\n"
    "                        empty and are gone at exit\n"
    "  --tpm SOCKET          a TPM 2.0: swtpm socket --tpm2 --server type=unixio,path=SOCKET\n"
    "                        --ctrl type=unixio,path=SOCKET.ctrl (measured boot and\n"
    "                        EFI_TCG2_PROTOCOL)\n"
    "  --net user[,OPTIONS]  a NIC (SimpleNetwork) on a user-mode network (libslirp, as\n"
    "                        QEMU's -netdev user): DHCP gives 10.0.2.15, the host's\n"
    "                        127.0.0.1 is 10.0.2.2. OPTIONS, comma-separated:\n"
    "                        tftp=DIR (TFTP server on 10.0.2.2), bootfile=NAME (DHCP's\n"
    "                        boot file), loss=PERCENT (drop that share of frames each\n"
    "                        way), seed=N (of the loss, default 1), mac=XX:..:XX\n"
    "                        (default 52:54:00:12:34:56)\n"
    "  --gop WIDTHxHEIGHT    the framebuffer's first mode (default 1024x768)\n"
    "  --screenshot FILE.png write the framebuffer at exit\n"
    "  --screen              ConOut draws on the framebuffer too (the console splitter\n"
    "                        over stdout and the graphics console)\n"
    "  --mem MIB             RAM for the firmware (default 1024)\n"
    "  --trace               print every boot and runtime service call on stderr\n"
    "  --debug               print Ember's debug log on stderr\n"
    "  --firmware-ui         APP (a host file) runs as the firmware's own setup program:\n"
    "                        it may write Secure Boot keys as the platform owner\n"
    "  --driver FILE.efi     load and start a driver (a boot or runtime service driver\n"
    "                        image) before APP, then connect it to the devices, as the\n"
    "                        UEFI Shell's load does; repeatable\n"
    "  --keep-going          a program that crashes is reported and ended as if it had\n"
    "                        called Exit(EFI_ABORTED); the program that started it goes\n"
    "                        on (without it, a crash ends ember-run with status 3)\n"
    "  --gdb                 run under gdb, with each EFI program's symbols loaded where\n"
    "                        it was placed (a gnu-efi program's NAME.so beside NAME.efi,\n"
    "                        or the DWARF of a PE file): 'break efi_main', then 'run'\n"
    "  --gdb=print           print that gdb command line instead (for other front ends)\n"
    "  --break-at-entry      under gdb (implies --gdb), stop at each program's entry point\n"
    "  -h, --help            this text\n"
    "Exit status: 0 the program returned EFI_SUCCESS, 1 it returned an error,\n"
    "2 usage error or an image that cannot load, 3 the program crashed.\n";

/* One decimal number of at most max, ending at a character that is not a digit. */
static const char *parse_decimal(const char *text, UINT32 max, UINT32 *value)
{
	UINT64 v = 0;
	const char *c = text;

	for (; *c >= '0' && *c <= '9'; c++) {
		v = v * 10 + (UINT64)(*c - '0');
		if (v > max)
			return NULL; /* checked at every digit: nothing wraps */
	}
	*value = (UINT32)v;
	return c > text ? c : NULL;
}

/* "WIDTHxHEIGHT", each from GOP_MIN to GOP_MAX. */
static bool parse_gop_size(const char *text, UINT32 *width, UINT32 *height)
{
	const char *c = parse_decimal(text, GOP_MAX, width);

	if (!c || *c != 'x')
		return false;
	c = parse_decimal(c + 1, GOP_MAX, height);
	return c && !*c && *width >= GOP_MIN && *height >= GOP_MIN;
}

static _Noreturn void usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "ember-run: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'ember-run --help'.\n");
	exit(2);
}

static void parse_options(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
		bool takes_value =
		    !strcmp(a, "--esp") || !strcmp(a, "--disk") || !strcmp(a, "--gop") ||
		    !strcmp(a, "--screenshot") || !strcmp(a, "--mem") || !strcmp(a, "--vars") ||
		    !strcmp(a, "--tpm") || !strcmp(a, "--net") || !strcmp(a, "--driver");
		if (takes_value && !value)
			usage_error("option %s needs a value", a);
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage_text, stdout);
			exit(0);
		} else if (!strcmp(a, "--esp")) {
			opt.esp = hosted_options.esp = value;
			opt.esp_position = hosted_disk_count();
		} else if (!strcmp(a, "--disk")) {
			hosted_disk_add(value);
		} else if (!strcmp(a, "--net")) {
			hosted_net_add(value);
		} else if (!strcmp(a, "--vars")) {
			vars_file = value;
		} else if (!strcmp(a, "--tpm")) {
			tpm_socket = value;
		} else if (!strcmp(a, "--gop")) {
			if (!parse_gop_size(value, &opt.gop_width, &opt.gop_height))
				usage_error(
				    "bad --gop size '%s' (want WIDTHxHEIGHT, 64 to 8192 each)",
				    value);
		} else if (!strcmp(a, "--screen")) {
			screen_console = true;
		} else if (!strcmp(a, "--screenshot")) {
			hosted_options.screenshot = value;
		} else if (!strcmp(a, "--mem")) {
			char *end;
			opt.ram_mib = strtoull(value, &end, 10);
			if (*end || opt.ram_mib < 16 || opt.ram_mib > 65536)
				usage_error("bad --mem value '%s' (16 to 65536 MiB)", value);
		} else if (!strcmp(a, "--trace")) {
			hosted_options.trace = true;
		} else if (!strcmp(a, "--debug")) {
			log_threshold = LOG_LEVEL_DEBUG;
		} else if (!strcmp(a, "--gdb")) {
			opt.gdb = true;
		} else if (!strcmp(a, "--gdb=print")) {
			opt.gdb = opt.gdb_print = true;
		} else if (!strcmp(a, "--break-at-entry")) {
			opt.gdb = opt.break_at_entry = true;
		} else if (!strcmp(a, "--driver")) {
			if (driver_count == MAX_DRIVERS)
				usage_error("%s", "more than 8 --driver options");
			driver_files[driver_count++] = value;
		} else if (!strcmp(a, "--firmware-ui")) {
			firmware_ui = true;
		} else if (!strcmp(a, "--keep-going")) {
			hosted_options.keep_going = true;
		} else if (!strcmp(a, "--")) {
			i++;
			break;
		} else {
			usage_error("unknown option %s", a);
		}
		if (takes_value)
			i++;
	}
	if (i >= argc)
		usage_error("%s", "no EFI program given");
	hosted_options.app = argv[i];
	opt.first_arg = i;
	opt.argc = argc;
	opt.argv = argv;
}

static EFI_STATUS ram_init(void)
{
	UINT64 size = opt.ram_mib << 20;
	void *p = mmap((void *)RAM_BASE, size, PROT_READ | PROT_WRITE | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE | MAP_NORESERVE, -1, 0);
	struct core_memory_range ram = {RAM_BASE, size >> 12, EfiConventionalMemory,
					EFI_MEMORY_UC | EFI_MEMORY_WC | EFI_MEMORY_WT |
					    EFI_MEMORY_WB};
	struct core_config config = {&ram, 1, u"Ember", 0x00010000};
	EFI_STATUS status;

	if (p != (void *)RAM_BASE) {
		fprintf(stderr, "ember-run: cannot map %llu MiB of RAM at 0x%llx: %s\n",
			(unsigned long long)opt.ram_mib, RAM_BASE, strerror(errno));
		exit(2);
	}
	status = core_init(&config);
	if (!EFI_ERROR(status))
		status = mem_protection_start();
	return status;
}

void hosted_memory_release(void)
{
	mprotect((void *)RAM_BASE, opt.ram_mib << 20, PROT_READ | PROT_WRITE | PROT_EXEC);
	if (hosted_stack_guard)
		mprotect((void *)(uintptr_t)hosted_stack_guard, HOSTED_GUARD_SIZE, PROT_NONE);
}

_Noreturn void hosted_exit(int code)
{
	hosted_timer_stop();
	hosted_console_restore();
	if (hosted_options.screenshot && !hosted_gop_screenshot(hosted_options.screenshot)) {
		fprintf(stderr, "ember-run: cannot write %s: %s\n", hosted_options.screenshot,
			strerror(errno));
		if (code == 0)
			code = 1;
	}
	fflush(stdout);
	exit(code);
}

/* The program's LoadOptions: its name and ARGS as one UCS-2 command line, quoted where
 * an argument has spaces, as a shell would pass them. */
static CHAR16 *command_line(UINT32 *size)
{
	static char text[MAX_ARGS_UNITS];
	size_t used = 0;
	const char *app = strrchr(hosted_options.app, '/');
	CHAR16 *units = pool_alloc_typed(EfiLoaderData, MAX_ARGS_UNITS * sizeof(CHAR16));

	for (int i = opt.first_arg; i < opt.argc && units; i++) {
		const char *arg =
		    i == opt.first_arg ? (app ? app + 1 : hosted_options.app) : opt.argv[i];
		bool quote = !*arg || strpbrk(arg, " \t");
		int n = snprintf(text + used, sizeof(text) - used, "%s%s%s%s", used ? " " : "",
				 quote ? "\"" : "", arg, quote ? "\"" : "");
		if (n < 0 || (size_t)n >= sizeof(text) - used) {
			fprintf(stderr, "ember-run: arguments too long\n");
			exit(2);
		}
		used += (size_t)n;
	}
	if (!units)
		return NULL;
	*size = (UINT32)((utf8_to_ucs2(units, MAX_ARGS_UNITS, text, used) + 1) * sizeof(CHAR16));
	return units;
}

static void *read_host_file(const char *path, UINTN *size)
{
	/* O_NONBLOCK: a FIFO or a device is refused after fstat instead of blocking the open
	 * until someone writes to it; reads of a regular file never block anyway. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	void *buffer = NULL;

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "ember-run: %s: %s\n", path,
			fd < 0 ? strerror(errno) : "not a regular file");
		exit(2);
	}
	buffer = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!buffer || read(fd, buffer, (size_t)st.st_size) != st.st_size) {
		fprintf(stderr, "ember-run: %s: cannot read it\n", path);
		exit(2);
	}
	close(fd);
	*size = (UINTN)st.st_size;
	return buffer;
}

/* The path of APP inside the ESP directory, with backslashes; NULL when it is not in it. */
static CHAR16 *path_inside(const char *esp, const char *app)
{
	char esp_real[PATH_MAX], app_real[PATH_MAX];
	static CHAR16 out[PATH_MAX];
	size_t n;

	if (!realpath(esp, esp_real) || !realpath(app, app_real))
		return NULL;
	n = strlen(esp_real);
	if (strncmp(esp_real, app_real, n) || app_real[n] != '/')
		return NULL;
	utf8_to_ucs2(out, ARRAY_SIZE(out), app_real + n, strlen(app_real + n));
	for (CHAR16 *c = out; *c; c++)
		if (*c == '/')
			*c = '\\';
	return out;
}

static EFI_HANDLE load_app(EFI_DEVICE_PATH_PROTOCOL *esp_path)
{
	CHAR16 *inside = esp_path ? path_inside(opt.esp, hosted_options.app) : NULL;
	EFI_DEVICE_PATH_PROTOCOL *path = hosted_map_file_path(hosted_options.app);
	const char *reason = NULL;
	void *file = NULL;
	UINTN size = 0;
	EFI_HANDLE image = NULL;
	EFI_STATUS status;

	if (firmware_ui) { /* from the host file, as the firmware's own (docs/setup-settings.md) */
		pool_free(path);
		path = NULL;
		file = read_host_file(hosted_options.app, &size);
		status = file ? image_load_builtin(core_image_handle, file, size, &image, &reason)
			      : EFI_NOT_FOUND;
		if (!EFI_ERROR(status))
			status = variable_owner_grant(image);
		goto out;
	}
	if (!path && inside) {
		EFI_DEVICE_PATH_PROTOCOL *file_node = dp_file_path(inside);
		path = file_node ? dp_append(esp_path, file_node) : NULL;
		pool_free(file_node);
	} else if (!path) { /* else fsN:\... names a file on a volume */
		file = read_host_file(hosted_options.app, &size);
	}
	status = image_load(false, core_image_handle, path, file, size, &image, &reason);
out:
	free(file);
	pool_free(path);
	if (EFI_ERROR(status)) {
		fprintf(stderr, "ember-run: %s: %s\n", hosted_options.app,
			reason ? reason : efi_status_name(status));
		exit(2);
	}
	return image;
}

/* The --driver images, loaded from their host files and started; then every controller is
 * connected again, so that they bind where they can. A driver that fails ends ember-run. */
static void start_drivers(void)
{
	for (int i = 0; i < driver_count; i++) {
		const char *name = driver_files[i], *base = strrchr(name, '/');
		const char *reason = NULL;
		UINTN size = 0;
		void *file = read_host_file(name, &size);
		EFI_HANDLE image = NULL;
		EFI_STATUS status =
		    file ? image_load(false, core_image_handle, NULL, file, size, &image, &reason)
			 : EFI_NOT_FOUND;

		free(file);
		if (!EFI_ERROR(status)) {
			image_set_name(image, base ? base + 1 : name);
			status = image_start(image, NULL, NULL);
			reason = NULL;
		}
		if (EFI_ERROR(status)) {
			fprintf(stderr, "ember-run: driver %s: %s\n", name,
				reason ? reason : efi_status_name(status));
			exit(2);
		}
	}
	if (driver_count)
		driver_connect_all();
}

static void set_load_options(EFI_HANDLE image)
{
	EFI_LOADED_IMAGE_PROTOCOL *li;
	const char *base = strrchr(hosted_options.app, '/');

	if (EFI_ERROR(protocol_get(image, &efi_loaded_image_protocol_guid, (void **)&li)))
		return;
	li->LoadOptions = command_line(&li->LoadOptionsSize);
	image_set_name(image, base ? base + 1 : hosted_options.app);
}

static void console_start_failed(EFI_STATUS status)
{
	fprintf(stderr, "ember-run: cannot start the console: %s\n", efi_status_name(status));
	exit(2);
}

static void start_devices(EFI_DEVICE_PATH_PROTOCOL **esp_path)
{
	EFI_HANDLE esp_handle = NULL;
	EFI_STATUS status = hosted_console_init();

	/* Without --screen the framebuffer appears after drivers bind, so the graphics console
	 * does not take it: clearing a screen nobody reads costs more than the rest of the
	 * start-up (a page fault per 4 KiB of it). */
	if (!EFI_ERROR(status) && screen_console)
		status = hosted_gop_init(opt.gop_width, opt.gop_height);
	if (EFI_ERROR(status))
		console_start_failed(status);
	*esp_path = NULL;
	if (opt.esp) {
		status = hosted_fs_mount(opt.esp, &esp_handle, esp_path);
		if (EFI_ERROR(status))
			usage_error("cannot use '%s' as the ESP (not a directory?)", opt.esp);
	}
	hosted_disks_attach();
	hosted_net_attach();
	/* What a boot manager does first: drivers bind to every device there is. */
	init_run_all();
	driver_install_builtin();
	driver_connect_all();
	if (!screen_console && EFI_ERROR(status = hosted_gop_init(opt.gop_width, opt.gop_height)))
		console_start_failed(status);
	hosted_map_build(*esp_path, opt.esp_position);
	/* Not by default: ConOut's device path and modes are stdout's, as programs expect. */
	if (screen_console && EFI_ERROR(console_splitter_start(CONSOLE_SPLITTER_CON_OUT))) {
		fprintf(stderr, "ember-run: cannot start the screen console\n");
		exit(2);
	}
}

#define STACK_SIZE (1024 * 1024) /* the spec asks for at least 128 KiB */

UINT64 hosted_stack_guard;

struct run {
	EFI_HANDLE image;
	EFI_STATUS status;
	UINTN exit_data_size;
	CHAR16 *exit_data;
};

static void run_image(void *arg)
{
	struct run *r = arg;

	r->status = image_start(r->image, &r->exit_data_size, &r->exit_data);
}

/* StartImage on a stack allocated from firmware memory, like the firmware's own. A page
 * no one may touch lies below it: a program that recurses too deeply faults there (a
 * "stack overflow" report) instead of writing over the firmware's memory further down.
 * The page stays allocated, so the memory map never hands it out. */
static void start_on_firmware_stack(struct run *r)
{
	EFI_PHYSICAL_ADDRESS stack;

	if (EFI_ERROR(mem_allocate_pages(AllocateAnyPages, EfiBootServicesData,
					 (STACK_SIZE + HOSTED_GUARD_SIZE) / 4096, &stack)) ||
	    mprotect((void *)(uintptr_t)stack, HOSTED_GUARD_SIZE, PROT_NONE) != 0) {
		fprintf(stderr, "ember-run: no memory for a stack\n");
		exit(2);
	}
	hosted_stack_guard = stack;
	call_on_stack(run_image, r, (void *)(uintptr_t)(stack + HOSTED_GUARD_SIZE + STACK_SIZE));
}

/* Where an image's code was loaded (crash.c names the program a fault ended by it). */
static UINT64 image_base(EFI_HANDLE image)
{
	EFI_LOADED_IMAGE_PROTOCOL *li;

	if (EFI_ERROR(protocol_get(image, &efi_loaded_image_protocol_guid, (void **)&li)))
		return 0;
	return (UINT64)(uintptr_t)li->ImageBase;
}

/* "ember-run: APP: EFI_NOT_FOUND: <the program's exit data text>" */
static void report_failure(EFI_STATUS status, const CHAR16 *exit_data, UINTN exit_data_size)
{
	const char *name = efi_status_name(status);
	char text[1024] = "";

	if (exit_data && exit_data_size >= sizeof(CHAR16))
		ucs2_to_utf8(text, sizeof(text), exit_data, exit_data_size / sizeof(CHAR16));
	fprintf(stderr, "ember-run: %s: ", hosted_options.app);
	if (name)
		fprintf(stderr, "%s", name);
	else
		fprintf(stderr, "status 0x%llx", (unsigned long long)status);
	fprintf(stderr, "%s%s\n", text[0] ? ": " : "", text);
}

int main(int argc, char **argv)
{
	EFI_DEVICE_PATH_PROTOCOL *esp_path;
	struct run r = {0};
	UINT64 base;

	parse_options(argc, argv);
	if (opt.gdb)
		hosted_gdb_exec(argc, argv, opt.first_arg, opt.esp, opt.gdb_print,
				opt.break_at_entry);
	if (EFI_ERROR(ram_init())) {
		fprintf(stderr, "ember-run: the core failed to start\n");
		return 2;
	}
	hosted_crash_handlers_install();
	hosted_vars_start(vars_file);
	if (tpm_socket)
		hosted_tpm_start(tpm_socket);
	start_devices(&esp_path);
	start_drivers();
	r.image = load_app(esp_path);
	set_load_options(r.image);
	if (hosted_options.trace)
		trace_install();
	base = image_base(r.image);
	hosted_timer_start();
	start_on_firmware_stack(&r);
	if (base && hosted_crash_ended == base)
		hosted_exit(3); /* APP itself crashed (--keep-going): the report said so */
	if (EFI_ERROR(r.status))
		report_failure(r.status, r.exit_data, r.exit_data_size);
	hosted_exit(EFI_ERROR(r.status) ? 1 : 0);
}
