/* ConnectController's choice of drivers (core/driver/connect.c, UEFI 2.10 7.3.12): the
 * caller's list, then the platform override, then driver families by their version, then
 * the bus specific override, then every other driver by Version; after each Supported that
 * says yes the search restarts from the top, and each driver starts at most once per call.
 * RemainingDevicePath reaches Supported and Start unchanged; an End node means success
 * even when nothing starts. A pass over every handle (driver_connect_all) offers a
 * controller again only when it, or the set of drivers, changed since every driver
 * declined it or started, or when a Start failed. The drivers here only record what they are asked.
 */
#include <stdio.h>
#include <string.h>

#include "support/test.h"
#include "../../core/services.h"
#include <ember/core/devpath.h>
#include <ember/lib/util.h>
#include <efi/protocol/driver_binding.h>
#include <efi/protocol/driver_override.h>

static const EFI_GUID binding_guid = EFI_DRIVER_BINDING_PROTOCOL_GUID;
static const EFI_GUID platform_guid = EFI_PLATFORM_DRIVER_OVERRIDE_PROTOCOL_GUID;
static const EFI_GUID bus_guid = EFI_BUS_SPECIFIC_DRIVER_OVERRIDE_PROTOCOL_GUID;
static const EFI_GUID family_guid = EFI_DRIVER_FAMILY_OVERRIDE_PROTOCOL_GUID;
static const EFI_GUID ctl_guid = {0xc0117011, 0x1, 0x2, {3, 4, 5, 6, 7, 8, 9, 10}};
static int ctl_iface;

#define MAX_DRIVERS 6

/* A driver named by a letter: Supported says yes to controllers with ctl_guid when it is
 * willing (and, with `after`, once that driver has started); Start records its name. */
struct test_driver {
	EFI_DRIVER_BINDING_PROTOCOL binding;
	EFI_DRIVER_FAMILY_OVERRIDE_PROTOCOL family;
	UINT32 family_version;
	char name, after;
	bool willing, start_fails;
	EFI_HANDLE handle;
};

static struct test_driver drivers[MAX_DRIVERS];
static int driver_count;
static char asked[64], started[16];
static EFI_DEVICE_PATH_PROTOCOL *supported_rest, *start_rest;
static EFI_HANDLE controller;

static void append(char *s, size_t size, char c)
{
	size_t n = strlen(s);

	if (n + 1 < size)
		s[n] = c, s[n + 1] = 0;
}

static EFI_STATUS EFIAPI t_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE c,
				     EFI_DEVICE_PATH_PROTOCOL *rest)
{
	struct test_driver *d = (struct test_driver *)this;
	void *p;

	if (EFI_ERROR(protocol_get(c, &ctl_guid, &p)))
		return EFI_UNSUPPORTED;
	append(asked, sizeof(asked), d->name);
	supported_rest = rest;
	if (!d->willing || (d->after && !strchr(started, d->after)))
		return EFI_UNSUPPORTED;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI t_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE c,
				 EFI_DEVICE_PATH_PROTOCOL *rest)
{
	append(started, sizeof(started), ((struct test_driver *)this)->name);
	start_rest = rest;
	return ((struct test_driver *)this)->start_fails ? EFI_DEVICE_ERROR : EFI_SUCCESS;
}

static EFI_STATUS EFIAPI t_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE c, UINTN n,
				EFI_HANDLE *kids)
{
	return EFI_SUCCESS;
}

static UINT32 EFIAPI t_family_version(EFI_DRIVER_FAMILY_OVERRIDE_PROTOCOL *this)
{
	return container_of(this, struct test_driver, family)->family_version;
}

/* Drivers named a, b, c ... with these Versions, each on a handle of its own that is also
 * its image handle, and a controller for them. */
static void setup(const UINT32 *versions, int n)
{
	driver_count = n;
	asked[0] = started[0] = 0;
	for (int i = 0; i < n; i++) {
		struct test_driver *d = &drivers[i];
		*d = (struct test_driver){.binding = {t_supported, t_start, t_stop, versions[i]},
					  .family = {t_family_version},
					  .name = (char)('a' + i),
					  .willing = true};
		ASSERT_STATUS(protocol_install(&d->handle, &binding_guid, &d->binding),
			      EFI_SUCCESS);
		d->binding.ImageHandle = d->binding.DriverBindingHandle = d->handle;
	}
	controller = NULL;
	ASSERT_STATUS(protocol_install(&controller, &ctl_guid, &ctl_iface), EFI_SUCCESS);
}

static void teardown(void)
{
	for (int i = 0; i < driver_count; i++) {
		if (drivers[i].family_version)
			protocol_uninstall(drivers[i].handle, &family_guid, &drivers[i].family);
		protocol_uninstall(drivers[i].handle, &binding_guid, &drivers[i].binding);
	}
	protocol_uninstall(controller, &ctl_guid, &ctl_iface);
}

static bool started_is(const char *expect)
{
	if (!strcmp(started, expect))
		return true;
	printf("    started \"%s\", expected \"%s\" (asked \"%s\")\n", started, expect, asked);
	return false;
}

TEST(connect_by_version_then_install_order)
{
	static const UINT32 versions[] = {0x10, 0x30, 0x20, 0x30};

	setup(versions, 4);
	EXPECT_STATUS(efi_connect_controller(controller, NULL, NULL, FALSE), EFI_SUCCESS);
	EXPECT(started_is("bdca"));
	/* Each driver starts once per call: asked again only until it said yes. */
	EXPECT(!strcmp(asked, "bdca"));
	teardown();
}

TEST(connect_restarts_from_the_top_after_each_start)
{
	static const UINT32 versions[] = {0x30, 0x20, 0x10};

	setup(versions, 3);
	drivers[1].after = 'c'; /* b wants what c makes */
	EXPECT_STATUS(efi_connect_controller(controller, NULL, NULL, FALSE), EFI_SUCCESS);
	EXPECT(started_is("acb"));
	EXPECT(!strcmp(asked, "abcb"));
	/* Nothing left to start: not found. */
	asked[0] = started[0] = 0;
	for (int i = 0; i < 3; i++)
		drivers[i].willing = false;
	EXPECT_STATUS(efi_connect_controller(controller, NULL, NULL, FALSE), EFI_NOT_FOUND);
	EXPECT(started_is(""));
	EXPECT(!strcmp(asked, "abc"));
	teardown();
}

TEST(connect_caller_list_comes_first)
{
	static const UINT32 versions[] = {0x10, 0x20, 0x30, 0x40};

	setup(versions, 4);
	EFI_HANDLE list[] = {drivers[1].handle, drivers[0].handle, NULL};
	EXPECT_STATUS(efi_connect_controller(controller, list, NULL, FALSE), EFI_SUCCESS);
	EXPECT(started_is("badc"));
	teardown();
}

/* ---- The overrides ---- */

static EFI_HANDLE platform_list[4], bus_list[4];

static EFI_STATUS next_in(EFI_HANDLE *list, EFI_HANDLE *image)
{
	int i = 0;

	if (*image) {
		while (list[i] && list[i] != *image)
			i++;
		if (!list[i])
			return EFI_INVALID_PARAMETER;
		i++;
	}
	if (!list[i])
		return EFI_NOT_FOUND;
	*image = list[i];
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI platform_get_driver(EFI_PLATFORM_DRIVER_OVERRIDE_PROTOCOL *this,
					     EFI_HANDLE c, EFI_HANDLE *image)
{
	return c == controller ? next_in(platform_list, image) : EFI_NOT_FOUND;
}

static EFI_STATUS EFIAPI bus_get_driver(EFI_BUS_SPECIFIC_DRIVER_OVERRIDE_PROTOCOL *this,
					EFI_HANDLE *image)
{
	return next_in(bus_list, image);
}

static EFI_PLATFORM_DRIVER_OVERRIDE_PROTOCOL platform_override = {platform_get_driver};
static EFI_BUS_SPECIFIC_DRIVER_OVERRIDE_PROTOCOL bus_override = {bus_get_driver};

/* Six drivers, Versions rising with the name, so that version order alone is "fedcba":
 * the caller names a, the platform b, c and d are a family (d's family version higher),
 * the bus names e; f comes last despite its Version. */
static void all_overrides(void)
{
	static const UINT32 versions[] = {1, 2, 3, 4, 5, 6};
	EFI_HANDLE platform_handle = NULL;

	setup(versions, 6);
	drivers[2].family_version = 1;
	drivers[3].family_version = 9;
	for (int i = 2; i <= 3; i++)
		ASSERT_STATUS(
		    protocol_install(&drivers[i].handle, &family_guid, &drivers[i].family),
		    EFI_SUCCESS);
	platform_list[0] = drivers[1].handle, platform_list[1] = NULL;
	bus_list[0] = drivers[4].handle, bus_list[1] = NULL;
	ASSERT_STATUS(protocol_install(&platform_handle, &platform_guid, &platform_override),
		      EFI_SUCCESS);
	ASSERT_STATUS(protocol_install(&controller, &bus_guid, &bus_override), EFI_SUCCESS);
	EFI_HANDLE list[] = {drivers[0].handle, NULL};
	EXPECT_STATUS(efi_connect_controller(controller, list, NULL, FALSE), EFI_SUCCESS);
	EXPECT(started_is("abdcef"));
	protocol_uninstall(controller, &bus_guid, &bus_override);
	protocol_uninstall(platform_handle, &platform_guid, &platform_override);
	teardown();
}

TEST(connect_override_precedence)
{
	RUN_ISOLATED(all_overrides);
}

/* The overrides name image handles: a driver's bindings may sit on other handles than its
 * image's (UEFI 2.10, 11.1: DriverBindingHandle), and all of them get the override's
 * place. */
static void override_names_an_image(void)
{
	static const UINT32 versions[] = {0x10, 0x20, 0x30, 0x40};
	EFI_HANDLE image = NULL;
	static int image_iface;
	static const EFI_GUID image_guid = {0x1a9e, 0, 0, {0}};

	setup(versions, 4);
	ASSERT_STATUS(protocol_install(&image, &image_guid, &image_iface), EFI_SUCCESS);
	drivers[0].binding.ImageHandle = image; /* a and b: one image, bindings elsewhere */
	drivers[1].binding.ImageHandle = image;
	bus_list[0] = image, bus_list[1] = NULL;
	ASSERT_STATUS(protocol_install(&controller, &bus_guid, &bus_override), EFI_SUCCESS);
	EXPECT_STATUS(efi_connect_controller(controller, NULL, NULL, FALSE), EFI_SUCCESS);
	EXPECT(started_is("abdc"));
	/* The same through the platform override. */
	protocol_uninstall(controller, &bus_guid, &bus_override);
	EFI_HANDLE platform_handle = NULL;
	platform_list[0] = image, platform_list[1] = NULL;
	ASSERT_STATUS(protocol_install(&platform_handle, &platform_guid, &platform_override),
		      EFI_SUCCESS);
	started[0] = 0;
	protocol_uninstall(controller, &ctl_guid, &ctl_iface);
	controller = NULL;
	ASSERT_STATUS(protocol_install(&controller, &ctl_guid, &ctl_iface), EFI_SUCCESS);
	EXPECT_STATUS(efi_connect_controller(controller, NULL, NULL, FALSE), EFI_SUCCESS);
	EXPECT(started_is("abdc"));
	protocol_uninstall(platform_handle, &platform_guid, &platform_override);
	protocol_uninstall(image, &image_guid, &image_iface);
	teardown();
}

TEST(connect_override_by_image_handle)
{
	RUN_ISOLATED(override_names_an_image);
}

/* ---- RemainingDevicePath and arguments ---- */

TEST(connect_passes_the_remaining_path_and_accepts_an_end_node)
{
	static const UINT32 versions[] = {0x10};
	EFI_DEVICE_PATH_PROTOCOL *rest = dp_from_text(u"Pci(0x1,0x0)");
	EFI_DEVICE_PATH_PROTOCOL end = {
	    END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {4, 0}};

	ASSERT(rest != NULL);
	setup(versions, 1);
	EXPECT_STATUS(efi_connect_controller(controller, NULL, rest, FALSE), EFI_SUCCESS);
	EXPECT(supported_rest == rest && start_rest == rest);
	/* An End node: no child is wanted, so finding no driver is no failure. */
	drivers[0].willing = false;
	EXPECT_STATUS(efi_connect_controller(controller, NULL, &end, TRUE), EFI_SUCCESS);
	EXPECT(supported_rest == &end);
	EXPECT_STATUS(efi_connect_controller(controller, NULL, rest, FALSE), EFI_NOT_FOUND);
	EXPECT_STATUS(efi_connect_controller(controller, NULL, NULL, FALSE), EFI_NOT_FOUND);
	teardown();
	pool_free(rest);
	EXPECT_STATUS(efi_connect_controller(NULL, NULL, NULL, FALSE), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_connect_controller((EFI_HANDLE)&ctl_iface, NULL, NULL, FALSE),
		      EFI_INVALID_PARAMETER);
}

static bool asked_is(const char *expect)
{
	bool same = !strcmp(asked, expect);

	if (!same)
		printf("    asked \"%s\", expected \"%s\"\n", asked, expect);
	asked[0] = 0;
	return same;
}

TEST(connect_all_offers_a_settled_controller_again_only_when_it_changed)
{
	static const UINT32 versions[] = {0x10, 0x20, 0x30};
	static const EFI_GUID other_guid = {0xc0117012, 0x1, 0x2, {3, 4, 5, 6, 7, 8, 9, 10}};
	struct test_driver *late = &drivers[2];

	setup(versions, 2);
	drivers[0].willing = drivers[1].willing = false;
	driver_connect_all();
	EXPECT(asked_is("ba"));
	driver_connect_all();
	EXPECT(asked_is(""));
	/* ConnectController itself always asks. */
	EXPECT_STATUS(efi_connect_controller(controller, NULL, NULL, TRUE), EFI_NOT_FOUND);
	EXPECT(asked_is("ba"));
	driver_connect_all();
	EXPECT(asked_is(""));
	/* A protocol comes, then goes: the controller is offered again each time. */
	ASSERT_STATUS(protocol_install(&controller, &other_guid, &ctl_iface), EFI_SUCCESS);
	driver_connect_all();
	EXPECT(asked_is("ba"));
	ASSERT_STATUS(protocol_uninstall(controller, &other_guid, &ctl_iface), EFI_SUCCESS);
	driver_connect_all();
	EXPECT(asked_is("ba"));
	driver_connect_all();
	EXPECT(asked_is(""));
	/* A new driver: every controller is offered to all again. */
	*late = (struct test_driver){.binding = {t_supported, t_start, t_stop, versions[2]},
				     .name = 'c'};
	ASSERT_STATUS(protocol_install(&late->handle, &binding_guid, &late->binding), EFI_SUCCESS);
	late->binding.ImageHandle = late->binding.DriverBindingHandle = late->handle;
	driver_count = 3;
	driver_connect_all();
	EXPECT(asked_is("cba"));
	driver_connect_all();
	EXPECT(asked_is(""));
	teardown();
}

TEST(connect_all_tries_a_failed_start_again)
{
	static const UINT32 versions[] = {0x10, 0x20};

	setup(versions, 2);
	drivers[0].willing = false;
	drivers[1].start_fails = true;
	driver_connect_all();
	EXPECT(asked_is("ba"));
	driver_connect_all();
	EXPECT(asked_is("ba"));
	EXPECT(started_is("bb"));
	/* Once it starts, the controller is settled. */
	drivers[1].start_fails = false;
	driver_connect_all();
	EXPECT(asked_is("ba"));
	driver_connect_all();
	EXPECT(asked_is(""));
	teardown();
}
