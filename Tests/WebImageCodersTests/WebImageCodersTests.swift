// Tests of WebImageCoders arrive with its issue (issue 4).
import Testing
