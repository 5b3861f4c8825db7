/* The built-in drivers' installation (core/driver/builtin.c, include/ember/core/driver.h):
 * level by level and by name within a level, each on a handle of its own that is its image
 * and driver-binding handle, with a ComponentName2 that speaks "en"; a driver whose init
 * fails is left out, with a warning, and the others are installed all the same. */
#include <stdio.h>
#include <string.h>

#include "support/test.h"
#include "support/test_platform.h"
#include "block_dev.h"
#include <ember/core/core.h>
#include <ember/core/driver.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>

static const EFI_GUID binding_guid = EFI_DRIVER_BINDING_PROTOCOL_GUID;
static const EFI_GUID names_guid = EFI_COMPONENT_NAME2_PROTOCOL_GUID;

extern const struct ember_driver_entry __start_ember_drivers[], __stop_ember_drivers[];

/* A driver of the unit tests that manages nothing; its init fails when told to. */
static bool init_fails;
static unsigned init_calls;

static EFI_STATUS unit_init(void)
{
	init_calls++;
	return init_fails ? EFI_DEVICE_ERROR : EFI_SUCCESS;
}

static EFI_STATUS EFIAPI unit_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE c,
					EFI_DEVICE_PATH_PROTOCOL *rest)
{
	return EFI_UNSUPPORTED;
}

static EFI_STATUS EFIAPI unit_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE c,
				    EFI_DEVICE_PATH_PROTOCOL *rest)
{
	return EFI_UNSUPPORTED;
}

static EFI_STATUS EFIAPI unit_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE c, UINTN n,
				   EFI_HANDLE *kids)
{
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL unit_binding = {unit_supported, unit_start, unit_stop, 1};
static const struct ember_driver unit_driver = {
    .name = u"Unit Test Driver",
    .binding = &unit_binding,
    .init = unit_init,
};
EMBER_DRIVER(INIT_LATE, unit_driver);

static const struct ember_driver *registered(const CHAR16 *name, enum init_level *level)
{
	for (const struct ember_driver_entry *e = __start_ember_drivers; e < __stop_ember_drivers;
	     e++)
		if (!str16_cmp(e->driver->name, name)) {
			*level = e->level;
			return e->driver;
		}
	return NULL;
}

/* The handles carrying a ComponentName2, in the order they were installed. */
static EFI_HANDLE *name_handles(UINTN *count)
{
	EFI_HANDLE *handles = NULL;

	*count = 0;
	handle_locate_buffer(ByProtocol, &names_guid, NULL, count, &handles);
	return handles;
}

static CHAR16 *driver_name(EFI_HANDLE h)
{
	EFI_COMPONENT_NAME2_PROTOCOL *names;
	CHAR16 *name = NULL;

	if (EFI_ERROR(protocol_get(h, &names_guid, (void **)&names)) ||
	    EFI_ERROR(names->GetDriverName(names, (CHAR8 *)"en", &name)))
		return NULL;
	return name;
}

TEST(builtin_drivers_installed_by_level_then_name)
{
	UINTN count, checked = 0;
	enum init_level last_level = INIT_EARLY;
	const CHAR16 *last_name = u"";

	test_install_builtin_drivers();
	EXPECT_EQ(init_calls, 1);
	EFI_HANDLE *handles = name_handles(&count);
	ASSERT(handles != NULL);
	for (UINTN i = 0; i < count; i++) {
		enum init_level level;
		CHAR16 *name = driver_name(handles[i]);
		const struct ember_driver *d = name ? registered(name, &level) : NULL;
		EFI_DRIVER_BINDING_PROTOCOL *binding;
		if (!d || d->binding->DriverBindingHandle != handles[i])
			continue; /* another test's driver, or an earlier copy */
		EXPECT(level > last_level ||
		       (level == last_level && str16_cmp(name, last_name) > 0));
		last_level = level;
		last_name = name;
		EXPECT_STATUS(protocol_get(handles[i], &binding_guid, (void **)&binding),
			      EFI_SUCCESS);
		EXPECT(binding == d->binding);
		EXPECT(binding->ImageHandle == handles[i]);
		checked++;
	}
	EXPECT_EQ(checked, (UINTN)(__stop_ember_drivers - __start_ember_drivers));
	pool_free(handles);
}

TEST(builtin_component_name_speaks_english)
{
	EFI_COMPONENT_NAME2_PROTOCOL *names;
	CHAR16 *name = NULL;
	enum init_level level;

	test_install_builtin_drivers();
	const struct ember_driver *pci = registered(u"PCI Bus Driver", &level);
	ASSERT(pci != NULL);
	ASSERT_STATUS(protocol_get(pci->binding->DriverBindingHandle, &names_guid, (void **)&names),
		      EFI_SUCCESS);
	EXPECT(!str8_cmp((const char *)names->SupportedLanguages, "en"));
	EXPECT_STATUS(names->GetDriverName(names, (CHAR8 *)"en", &name), EFI_SUCCESS);
	EXPECT(name && !str16_cmp(name, u"PCI Bus Driver"));
	name = NULL;
	EXPECT_STATUS(names->GetDriverName(names, (CHAR8 *)"en-US", &name), EFI_SUCCESS);
	EXPECT(name && !str16_cmp(name, u"PCI Bus Driver"));
	EXPECT_STATUS(names->GetDriverName(names, (CHAR8 *)"fr", &name), EFI_UNSUPPORTED);
	EXPECT_STATUS(names->GetDriverName(names, (CHAR8 *)"eng", &name), EFI_UNSUPPORTED);
	EXPECT_STATUS(names->GetDriverName(names, (CHAR8 *)"e", &name), EFI_UNSUPPORTED);
	EXPECT_STATUS(names->GetDriverName(names, NULL, &name), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(names->GetDriverName(names, (CHAR8 *)"en", NULL), EFI_INVALID_PARAMETER);
	/* The PCI bus driver names no controllers. */
	EFI_HANDLE any = pci->binding->DriverBindingHandle;
	EXPECT_STATUS(names->GetControllerName(names, any, NULL, (CHAR8 *)"en", &name),
		      EFI_UNSUPPORTED);
	EXPECT_STATUS(names->GetControllerName(names, NULL, NULL, (CHAR8 *)"en", &name),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(names->GetControllerName(names, any, NULL, NULL, &name),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(names->GetControllerName(names, any, NULL, (CHAR8 *)"en", NULL),
		      EFI_INVALID_PARAMETER);

	/* A driver that names controllers asks its own function, in English only. */
	const struct ember_driver *terminal = registered(u"Serial Terminal Driver", &level);
	ASSERT(terminal != NULL && terminal->controller_name != NULL);
	ASSERT_STATUS(
	    protocol_get(terminal->binding->DriverBindingHandle, &names_guid, (void **)&names),
	    EFI_SUCCESS);
	EXPECT_STATUS(names->GetControllerName(names, any, NULL, (CHAR8 *)"de", &name),
		      EFI_UNSUPPORTED);
	EXPECT_STATUS(names->GetControllerName(names, any, NULL, (CHAR8 *)"en", &name),
		      EFI_UNSUPPORTED); /* not one of its serial ports */
}

static unsigned handles_with(const EFI_GUID *guid, void *interface)
{
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;
	unsigned n = 0;

	handle_locate_buffer(ByProtocol, guid, NULL, &count, &handles);
	for (UINTN i = 0; i < count; i++) {
		void *p;
		if (!EFI_ERROR(protocol_get(handles[i], guid, &p)) && p == interface)
			n++;
	}
	pool_free(handles);
	return n;
}

/* Installing again (a copy of every driver) with the unit driver's init failing. */
static void install_with_a_failing_init(void)
{
	char log[256];
	UINTN before, after;
	enum log_level threshold = log_threshold;
	EFI_HANDLE *h;

	test_install_builtin_drivers();
	pool_free(h = name_handles(&before));
	unsigned unit_copies = handles_with(&binding_guid, &unit_binding);
	init_fails = true;
	test_log_capture(LOG_LEVEL_WARN);
	EXPECT_STATUS(driver_install_builtin(), EFI_DEVICE_ERROR);
	snprintf(log, sizeof(log), "%s", test_log_text());
	test_log_stop();
	log_threshold = threshold;
	pool_free(h = name_handles(&after));
	EXPECT_EQ(after - before, (UINTN)(__stop_ember_drivers - __start_ember_drivers) - 1);
	EXPECT_EQ(handles_with(&binding_guid, &unit_binding), unit_copies);
	if (!EXPECT(strstr(log, "driver Unit Test Driver: EFI_DEVICE_ERROR\n") != NULL))
		printf("log: %s\n", log);
}

TEST(builtin_install_leaves_out_a_driver_whose_init_fails)
{
	RUN_ISOLATED(install_with_a_failing_init);
}
