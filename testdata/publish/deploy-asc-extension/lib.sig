sig
