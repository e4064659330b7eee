// Tests of WebImageTransformers arrive with its issue (issue 7).
import Testing
