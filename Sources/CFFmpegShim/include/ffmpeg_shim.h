/* placeholder: the FFmpeg shim API lands here */
