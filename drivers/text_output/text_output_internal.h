/* What the text output front end's two files share (drivers/text_output). */
#ifndef DRIVERS_TEXT_OUTPUT_INTERNAL_H
#define DRIVERS_TEXT_OUTPUT_INTERNAL_H

#include <ember/drivers/text_output.h>

/* OutputString's decoding (12.4.3): runs of characters that take a cell go to ops->draw,
 * control characters to their operations, the cursor moves as the spec says. EFI_SUCCESS,
 * or EFI_WARN_UNKNOWN_GLYPH when some characters were skipped or had no glyph. */
EFI_STATUS text_output_write(struct text_output *t, const struct text_output_ops *ops,
			     const CHAR16 *string);

/* TestString's part every console shares: EFI_SUCCESS when each character is one that
 * OutputString takes without a warning (control characters and width markers included). */
EFI_STATUS text_output_test(const CHAR16 *string);

#endif
