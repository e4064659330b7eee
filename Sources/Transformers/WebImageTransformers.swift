// WebImageTransformers: resize, crop, flip, rotate, round corner, tint, blur, filter, pipeline: issue 7.
// Depends on WebImageCore only. This file keeps the module buildable until its issue lands.
import WebImageCore
