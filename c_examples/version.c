/* Prints the library version, checks it is the header's (MBS_VERSION_*: a header of another
 * release would not match) and checks the status strings: the smallest program against mbs.h. */
#include <stdio.h>
#include <string.h>
#include "mbs.h"

int main(void) {
    char header[32];
    printf("mbs version %s\n", mbs_version());
    snprintf(header, sizeof header, "%d.%d.%d", MBS_VERSION_MAJOR, MBS_VERSION_MINOR,
             MBS_VERSION_PATCH);
    if (strcmp(mbs_version(), MBS_VERSION_STRING) != 0 || strcmp(header, MBS_VERSION_STRING) != 0) {
        printf("header version %s does not match the library's %s\n", MBS_VERSION_STRING,
               mbs_version());
        return 1;
    }
    printf("header version %s matches the library\n", MBS_VERSION_STRING);
    if (strcmp(mbs_status_str(MBS_OK), "ok") != 0) {
        return 1;
    }
    printf("status %u: %s\n", (unsigned)MBS_ERR_NULL_POINTER, mbs_status_str(MBS_ERR_NULL_POINTER));
    return 0;
}
