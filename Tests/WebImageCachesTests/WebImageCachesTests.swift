// Tests of WebImageCaches arrive with its issue (issue 5).
import Testing
