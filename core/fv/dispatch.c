/* The DXE dispatcher (PI 1.8 volume 2, 10.4 and 10.7) for the DRIVER files of the published
 * volumes, run once the built-in drivers are in place: a driver without a dependency
 * expression runs in volume order; one with an expression runs once it holds, each start
 * re-evaluating the others (a driver may install what another waits for); BEFORE and AFTER
 * drivers run right before or after the file they name; SOR drivers wait for a Schedule()
 * that Ember does not offer, so they do not run. A damaged file, a malformed expression or
 * an image that does not load is reported and never run. */
#define LOG_PREFIX "fv: "
#include "fv_internal.h"
#include <ember/core/devpath.h>
#include <ember/core/log.h>
#include <ember/lib/devpath_node.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>

#define MAX_DRIVERS 64

struct driver {
	struct fv_instance *fv;
	EFI_GUID name;
	struct fv_found depex; /* no section: data NULL */
	enum depex_kind kind;
	EFI_GUID target; /* of BEFORE and AFTER */
	bool done;
};

static struct driver drivers[MAX_DRIVERS];
static UINTN driver_count;
/* Files tried by an earlier dispatch (another call runs only what waited). */
static struct {
	const struct fv_instance *fv;
	EFI_GUID name;
} tried[MAX_DRIVERS];
static UINTN tried_count;

static bool tried_before(const struct fv_instance *fv, const EFI_GUID *name)
{
	for (UINTN i = 0; i < tried_count; i++)
		if (tried[i].fv == fv && guid_eq(&tried[i].name, name))
			return true;
	return false;
}

static bool installed(void *ctx, const EFI_GUID *guid)
{
	void *interface;

	return !EFI_ERROR(protocol_locate(guid, &interface));
}

static void warn_file(const EFI_GUID *name, const char *what, const char *why)
{
	char text[37];

	guid_to_str(text, name);
	log_warn("%s %s: %s\n", what, text, why);
}

/* The driver's dependency expression, checked for shape once. */
static bool add_driver(struct fv_instance *fv, const struct fv_file *file)
{
	struct driver *d = &drivers[driver_count];
	const char *why;

	if (driver_count == MAX_DRIVERS) {
		warn_file(&file->name, "skipping driver", "too many drivers in the volumes");
		return false;
	}
	*d = (struct driver){fv, file->name};
	why = fv_find_section(file->data, file->data_size, EFI_SECTION_DXE_DEPEX, 0,
			      &fv_pool_memory, &d->depex);
	if (why && str8_cmp(why, "not found") != 0) {
		warn_file(&file->name, "skipping driver", why);
		return false;
	}
	if (!why) {
		why = depex_check(d->depex.section.data, d->depex.section.data_size, &d->kind,
				  &d->target);
		if (why) {
			warn_file(&file->name, "skipping driver with a bad dependency expression",
				  why);
			pool_free(d->depex.owned);
			return false;
		}
	} else {
		d->depex.section.data = NULL;
	}
	driver_count++;
	return true;
}

/* Gathers the DRIVER files of one volume; a damaged file is reported here, once. */
static void gather(struct fv_instance *fv)
{
	size_t offset = fv->vol.files_start;
	struct fv_file file;
	const char *why;
	enum fv_walk walk;

	while ((walk = fv_next_file(&fv->vol, &offset, &file, &why)) != FV_WALK_END) {
		if (walk == FV_WALK_BROKEN) {
			log_warn("the firmware volume is damaged from offset 0x%llx on (%s): "
				 "the files there are skipped\n",
				 (unsigned long long)offset, why);
			return;
		}
		if (walk == FV_WALK_DAMAGED) {
			if (!tried_before(fv, &file.name))
				warn_file(&file.name, "skipping damaged file", why);
			continue;
		}
		if ((file.type == EFI_FV_FILETYPE_DRIVER ||
		     file.type == EFI_FV_FILETYPE_COMBINED_PEIM_DRIVER) &&
		    !tried_before(fv, &file.name))
			add_driver(fv, &file);
	}
}

static bool ready(const struct driver *d)
{
	if (d->done || d->kind != DEPEX_NORMAL)
		return false;
	return !d->depex.section.data ||
	       depex_eval(d->depex.section.data, d->depex.section.data_size, installed, NULL);
}

/* The image gets its file's UI name (traces, crash reports), and the log says it starts. */
static void name_image(const struct driver *d, EFI_HANDLE image)
{
	struct fv_found ui;
	struct fv_file file;
	char name[64], text[37];
	UINTN n = 0;

	guid_to_str(text, &d->name);
	if (!EFI_ERROR(fv_find_file(d->fv, &d->name, &file)) &&
	    !fv_find_section(file.data, file.data_size, EFI_SECTION_USER_INTERFACE, 0,
			     &fv_pool_memory, &ui)) {
		for (UINTN i = 0; i + 1 < ui.section.data_size && n + 1 < sizeof(name); i += 2) {
			UINT16 unit = (UINT16)(ui.section.data[i] | ui.section.data[i + 1] << 8);
			if (!unit)
				break;
			name[n++] = unit >= 0x20 && unit < 0x7F ? (char)unit : '?';
		}
		pool_free(ui.owned);
	}
	name[n] = 0;
	if (n)
		image_set_name(image, name);
	log_info("starting driver %s (%s) from the firmware volume\n", text, n ? name : "-");
}

/* Loads the file through its Fv()/FvFile() path (core/image/file.c reads it from the
 * volume; LoadImage measures it as platform code) and starts it. */
static bool run(struct driver *d)
{
	struct {
		MEDIA_FW_VOL_FILEPATH_DEVICE_PATH file;
		EFI_DEVICE_PATH_PROTOCOL end;
	} __attribute__((packed))
	node = {{{MEDIA_DEVICE_PATH, MEDIA_PIWG_FW_FILE_DP, {sizeof(node.file), 0}}, d->name}};
	EFI_DEVICE_PATH_PROTOCOL *path;
	EFI_HANDLE image = NULL;
	const char *why = NULL;
	EFI_STATUS status;

	d->done = true;
	if (tried_count < MAX_DRIVERS)
		tried[tried_count++] = (typeof(tried[0])){d->fv, d->name};
	dp_set_end(&node.end);
	path = dp_append((EFI_DEVICE_PATH_PROTOCOL *)&d->fv->path, &node.file.Header);
	if (!path) {
		warn_file(&d->name, "driver not run", "no memory");
		return false;
	}
	status = image_load(false, core_image_handle, path, NULL, 0, &image, &why);
	pool_free(path);
	if (EFI_ERROR(status)) {
		warn_file(&d->name, "driver not loaded", why ? why : "the image is refused");
		return false;
	}
	name_image(d, image);
	status = image_start(image, NULL, NULL);
	if (EFI_ERROR(status)) {
		char text[37];
		guid_to_str(text, &d->name);
		log_warn("driver %s: its entry point returned %r\n", text, status);
		return false;
	}
	return true;
}

static UINTN run_ordered(struct driver *d);

/* The drivers that asked to run right before or after d's file. */
static UINTN run_attached(const struct driver *d, enum depex_kind kind)
{
	UINTN started = 0;

	for (UINTN i = 0; i < driver_count; i++)
		if (!drivers[i].done && drivers[i].kind == kind &&
		    guid_eq(&drivers[i].target, &d->name))
			started += run_ordered(&drivers[i]);
	return started;
}

static UINTN run_ordered(struct driver *d)
{
	UINTN started = run_attached(d, DEPEX_BEFORE);

	started += run(d) ? 1 : 0;
	return started + run_attached(d, DEPEX_AFTER);
}

UINTN fv_dispatch(void)
{
	UINTN started = 0, i;

	for (i = 0; i < fv_instance_count; i++)
		gather(fv_instances[i]);
	/* From the first file again after each start: what it installed may satisfy an
	 * earlier file's expression. */
	for (i = 0; i < driver_count;) {
		if (ready(&drivers[i])) {
			started += run_ordered(&drivers[i]);
			i = 0;
		} else {
			i++;
		}
	}
	for (i = 0; i < driver_count; i++) {
		if (!drivers[i].done)
			warn_file(&drivers[i].name, "driver not run",
				  drivers[i].kind == DEPEX_SOR ? "it waits for Schedule()"
				  : drivers[i].kind == DEPEX_NORMAL
				      ? "its dependencies are never met"
				      : "the file it runs before or after is not run");
		pool_free(drivers[i].depex.owned);
	}
	driver_count = 0;
	return started;
}
