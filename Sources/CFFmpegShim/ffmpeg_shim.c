#include "ffmpeg_shim.h"
