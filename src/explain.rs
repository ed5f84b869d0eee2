//! Explain: run settings → security → repository and describe the outcome (`m2r explain`).
