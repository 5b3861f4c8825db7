/* The consoles come first: the splitter puts ConIn, ConOut and StdErr in the system table
 * before anything can print, and takes the serial terminal, the graphics console and the
 * PS/2 keyboard as their drivers bring them up. */
#include <ember/drivers/console_splitter.h>
#include <ember/core/init.h>

static EFI_STATUS consoles_start(void)
{
	return console_splitter_start(CONSOLE_SPLITTER_ALL);
}
EMBER_INIT(INIT_EARLY, consoles_start);
