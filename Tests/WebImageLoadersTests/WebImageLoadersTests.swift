// Tests of WebImageLoaders arrive with its issue (issue 6).
import Testing
